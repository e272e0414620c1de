//! The prototypes gcc gives library functions that a program calls without declaring.
//!
//! C89's implicit declaration makes an undeclared `f(...)` an `int f()`. For the C
//! library functions gcc knows as builtins, gcc does not: it warns ("incompatible
//! implicit declaration of built-in function 'malloc'") and uses the library's own
//! prototype, so `p = (T *) malloc(n)` without `<stdlib.h>` gets the whole pointer,
//! `free(p)` returns nothing and `strlen(s)` an unsigned `size_t`. ESBMC and CBMC do the
//! same. Taking `int` instead would cut a 64-bit pointer to 32 bits, a program natively
//! fine (and failing where the checkers say it fails) would be modelled as something
//! else. The list holds the builtins whose prototype is not already `int f()` after the
//! default argument promotions.

use crate::ir::{DataModel, FuncType, IntKind, Quals, Type};

/// The library prototype gcc uses for an implicitly declared call of `name`, if it is a
/// builtin whose prototype differs from `int name()`, and whether it never returns.
pub(super) fn implicit_prototype(name: &str, dm: DataModel) -> Option<(FuncType, bool)> {
    let size = Type::Int(dm.size_t());
    let vp = Type::void_ptr();
    let cvp = Type::Pointer(Box::new(Type::Qualified(
        Box::new(Type::Void),
        Quals {
            konst: true,
            ..Quals::default()
        },
    )));
    let cp = Type::Pointer(Box::new(Type::Int(IntKind::Char)));
    let ccp = Type::Pointer(Box::new(Type::Qualified(
        Box::new(Type::Int(IntKind::Char)),
        Quals {
            konst: true,
            ..Quals::default()
        },
    )));
    let int = Type::int();
    let proto = |ret: Type, params: Vec<Type>| FuncType {
        ret,
        params,
        variadic: false,
        unprototyped: false,
    };
    let f = match name {
        "malloc" | "alloca" => proto(vp, vec![size]),
        "calloc" => proto(vp, vec![size.clone(), size]),
        "realloc" => proto(vp.clone(), vec![vp, size]),
        "free" => proto(Type::Void, vec![vp]),
        "exit" | "_exit" | "_Exit" => return Some((proto(Type::Void, vec![int]), true)),
        "abort" => return Some((proto(Type::Void, vec![]), true)),
        "memcpy" | "memmove" => proto(vp.clone(), vec![vp, cvp, size]),
        "memset" => proto(vp.clone(), vec![vp, int, size]),
        "strlen" => proto(size, vec![ccp]),
        "strcpy" | "strcat" => proto(cp.clone(), vec![cp, ccp]),
        "strncpy" | "strncat" => proto(cp.clone(), vec![cp, ccp, size]),
        "strchr" | "strrchr" => proto(cp, vec![ccp, int]),
        "strdup" => proto(cp, vec![ccp]),
        _ => return None,
    };
    Some((f, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allocators_return_whole_pointers() {
        let (f, noreturn) = implicit_prototype("malloc", DataModel::Lp64).expect("a builtin");
        assert_eq!(f.ret, Type::void_ptr());
        assert_eq!(f.params, vec![Type::Int(IntKind::ULong)]);
        assert!(!noreturn);
        let (f, noreturn) = implicit_prototype("exit", DataModel::Lp64).expect("a builtin");
        assert_eq!(f.ret, Type::Void);
        assert!(noreturn);
        assert!(implicit_prototype("printf", DataModel::Lp64).is_none());
        assert!(implicit_prototype("my_alloc", DataModel::Lp64).is_none());
    }
}
