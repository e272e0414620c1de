//! Counts in words, for every message seqloc prints: `1 thread`, `3 threads`. One place,
//! so that no message says "1 threads".

/// `n` followed by `noun`, in the plural unless `n` is 1: `count(1, "round")` is
/// `1 round`, `count(2, "context switch")` is `2 context switches`.
pub fn count(n: impl Number, noun: &str) -> String {
    let n = n.as_u128();
    format!("{n} {}", plural(n, noun))
}

/// `noun` as it goes after the number `n`: singular for 1, otherwise the plural.
pub fn plural(n: impl Number, noun: &str) -> String {
    if n.as_u128() == 1 {
        return noun.to_string();
    }
    // English's regular plurals are all seqloc's nouns need (switch, task, candidate).
    let sibilant = ["s", "sh", "ch", "x", "z"]
        .iter()
        .any(|end| noun.ends_with(end));
    if sibilant {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// The unsigned counts messages print (`usize` has no `Into<u128>`).
pub trait Number: Copy {
    fn as_u128(self) -> u128;
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Number for $t {
            fn as_u128(self) -> u128 {
                // Lossless: every one of these fits in 128 bits.
                self as u128
            }
        }
    )*};
}

number!(u8, u16, u32, u64, u128, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1u32, "thread"), "1 thread");
        assert_eq!(count(0u32, "thread"), "0 threads");
        assert_eq!(count(3usize, "thread slot"), "3 thread slots");
        assert_eq!(count(1usize, "context switch"), "1 context switch");
        assert_eq!(count(4usize, "context switch"), "4 context switches");
        assert_eq!(count(2u64, "candidate"), "2 candidates");
        assert_eq!(plural(1u32, "task"), "task");
        assert_eq!(plural(7u32, "task"), "tasks");
    }
}
