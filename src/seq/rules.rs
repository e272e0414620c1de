//! Table II as data: which pthread calls and types the sequentializer removes, keeps or
//! turns into explicit integer-variable operations. The two groups live in `rules/` and
//! are compiled in; `--rules DIR` replaces them with the user's copies.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

const DEADLOCK: &str = include_str!("../../rules/deadlock.toml");
const NONDEADLOCK: &str = include_str!("../../rules/nondeadlock.toml");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Remove,
    Create,
    Join,
    Exit,
    SelfId,
    Equal,
    Store0,
    Lock,
    Trylock,
    Unlock,
    CondWait,
    CondTimedwait,
    CondSignal,
    CondBroadcast,
    KeyCreate,
    GetSpecific,
    SetSpecific,
    SemInit,
    SemWait,
    SemTrywait,
    SemPost,
    SemGetvalue,
    RdLock,
    WrLock,
    TryRdLock,
    TryWrLock,
    RwUnlock,
    /// `pthread_mutex_init`: free, of the attribute's type (typed mutexes) or default.
    MutexInit,
    /// An attribute's setter (`pthread_mutexattr_settype`, `pthread_attr_setdetachstate`):
    /// the attribute, an `int`, takes the value.
    AttrSet,
    /// An attribute's getter: the value is stored through the second argument.
    AttrGet,
    /// `pthread_detach`: the thread's detach state, which later joins and detaches read.
    Detach,
    /// `pthread_barrier_init`: the count, no thread arrived, generation 0 (see
    /// `build/sync.rs`).
    BarrierInit,
    // The front end's lowering of `pthread_barrier_wait` and `pthread_once`, modelled in
    // both groups whatever the rules say (`build::sync::builtin_action`): what they
    // answer decides which code runs, which no schedule records.
    BarrierArrive,
    BarrierLeave,
    OnceBegin,
    OnceEnd,
}

impl Action {
    fn parse(s: &str) -> Option<Action> {
        Some(match s {
            "remove" => Action::Remove,
            "create" => Action::Create,
            "join" => Action::Join,
            "exit" => Action::Exit,
            "self" => Action::SelfId,
            "equal" => Action::Equal,
            "store-0" => Action::Store0,
            "lock" => Action::Lock,
            "trylock" => Action::Trylock,
            "unlock" => Action::Unlock,
            "cond-wait" => Action::CondWait,
            "cond-timedwait" => Action::CondTimedwait,
            "cond-signal" => Action::CondSignal,
            "cond-broadcast" => Action::CondBroadcast,
            "key-create" => Action::KeyCreate,
            "getspecific" => Action::GetSpecific,
            "setspecific" => Action::SetSpecific,
            "sem-init" => Action::SemInit,
            "sem-wait" => Action::SemWait,
            "sem-trywait" => Action::SemTrywait,
            "sem-post" => Action::SemPost,
            "sem-getvalue" => Action::SemGetvalue,
            "rdlock" => Action::RdLock,
            "wrlock" => Action::WrLock,
            "tryrdlock" => Action::TryRdLock,
            "trywrlock" => Action::TryWrLock,
            "rwunlock" => Action::RwUnlock,
            "mutex-init" => Action::MutexInit,
            "attr-set" | "mutexattr-settype" => Action::AttrSet,
            "attr-get" | "mutexattr-gettype" => Action::AttrGet,
            "detach" => Action::Detach,
            "barrier-init" => Action::BarrierInit,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeRule {
    Int,
    Keep,
}

#[derive(Clone, Debug)]
pub struct Rules {
    pub group: String,
    pub types: HashMap<String, TypeRule>,
    /// Call patterns (exact names, or a prefix ending in `*`) and their actions.
    pub calls: Vec<(String, Action)>,
}

#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("cannot read rules file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("rules file {path}: {reason}")]
    Invalid { path: String, reason: String },
}

#[derive(Deserialize)]
struct RawRules {
    group: String,
    #[serde(default)]
    types: HashMap<String, String>,
    #[serde(default)]
    calls: HashMap<String, String>,
}

impl Rules {
    pub fn parse(text: &str, origin: &str) -> Result<Rules, RulesError> {
        let raw: RawRules = toml::from_str(text).map_err(|e| RulesError::Invalid {
            path: origin.to_string(),
            reason: e.to_string(),
        })?;
        let mut types = HashMap::new();
        for (k, v) in raw.types {
            let r = match v.as_str() {
                "int" => TypeRule::Int,
                "keep" => TypeRule::Keep,
                other => {
                    return Err(RulesError::Invalid {
                        path: origin.to_string(),
                        reason: format!(
                            "type `{k}`: unknown rule `{other}` (expected \"int\" or \"keep\")"
                        ),
                    });
                }
            };
            types.insert(k, r);
        }
        let mut calls = Vec::new();
        for (k, v) in raw.calls {
            let a = Action::parse(&v).ok_or_else(|| RulesError::Invalid {
                path: origin.to_string(),
                reason: format!("call `{k}`: unknown action `{v}`"),
            })?;
            calls.push((k, a));
        }
        // Exact names win over patterns; longer patterns over shorter ones.
        calls.sort_by(|a, b| {
            let wa = a.0.ends_with('*');
            let wb = b.0.ends_with('*');
            wa.cmp(&wb).then(b.0.len().cmp(&a.0.len()))
        });
        Ok(Rules {
            group: raw.group,
            types,
            calls,
        })
    }

    pub fn deadlock() -> Rules {
        // The compiled-in files are tested to parse.
        Rules::parse(DEADLOCK, "rules/deadlock.toml").unwrap_or_else(|_| Rules::empty("deadlock"))
    }

    pub fn nondeadlock() -> Rules {
        Rules::parse(NONDEADLOCK, "rules/nondeadlock.toml")
            .unwrap_or_else(|_| Rules::empty("non-deadlock"))
    }

    fn empty(group: &str) -> Rules {
        Rules {
            group: group.to_string(),
            types: HashMap::new(),
            calls: vec![],
        }
    }

    /// Loads `deadlock.toml` and `nondeadlock.toml` from a user directory.
    pub fn load_dir(dir: &Path) -> Result<(Rules, Rules), RulesError> {
        let read = |name: &str| -> Result<Rules, RulesError> {
            let p = dir.join(name);
            let text = std::fs::read_to_string(&p).map_err(|e| RulesError::Io {
                path: p.display().to_string(),
                reason: e.to_string(),
            })?;
            Rules::parse(&text, &p.display().to_string())
        };
        Ok((read("deadlock.toml")?, read("nondeadlock.toml")?))
    }

    pub fn action(&self, name: &str) -> Option<Action> {
        self.calls.iter().find_map(|(pat, a)| {
            let hit = match pat.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => pat == name,
            };
            hit.then_some(*a)
        })
    }

    pub fn type_rule(&self, typedef_name: &str) -> TypeRule {
        self.types
            .get(typedef_name)
            .copied()
            .unwrap_or(TypeRule::Keep)
    }

    /// Whether mutex operations are modelled (deadlock group) or removed.
    pub fn models_mutexes(&self) -> bool {
        self.action("pthread_mutex_lock") == Some(Action::Lock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_rules_parse() {
        let d = Rules::parse(DEADLOCK, "deadlock").expect("deadlock rules parse");
        let n = Rules::parse(NONDEADLOCK, "nondeadlock").expect("non-deadlock rules parse");
        assert_eq!(d.action("pthread_mutex_lock"), Some(Action::Lock));
        assert_eq!(n.action("pthread_mutex_lock"), Some(Action::Remove));
        assert_eq!(
            d.action("pthread_attr_setdetachstate"),
            Some(Action::Remove)
        );
        assert_eq!(d.type_rule("pthread_mutex_t"), TypeRule::Int);
        assert!(d.models_mutexes() && !n.models_mutexes());
    }

    #[test]
    fn bad_rules_are_named() {
        let e = Rules::parse("group = \"x\"\n[calls]\nfoo = \"explode\"\n", "r.toml").unwrap_err();
        assert!(e.to_string().contains("explode"));
    }
}
