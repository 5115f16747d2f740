//! The token quoter: how every program's messages show a token of its
//! input (docs/contract.md). The master of the marked block `show`: the
//! trainer imports this module; scripts/sync-shared copies the block into
//! the four pasted solvers, which must compile alone.
//!
//! `show` is linear in the bytes it shows (at most 40 characters' worth)
//! and never panics: every slice it takes is within the token.

// shared: show begin, master src/shared/show.rs (edit there, then run scripts/sync-shared)
/// A token for a message, the same in every solver: characters as they
/// are, but each byte of a control character or of invalid UTF-8 as `\xNN`;
/// cut after 40 characters with `...`.
pub(crate) fn show(token: &[u8]) -> String {
    let mut s = String::new();
    let mut rest = token;
    for _ in 0..40 {
        // The character that starts here: the shortest UTF-8 prefix.
        let text = (1..5).find_map(|n| std::str::from_utf8(rest.get(..n)?).ok());
        let len = text.map_or(1, str::len).min(rest.len());
        match text.and_then(|t| t.chars().next()) {
            Some(c) if !c.is_control() => s.push(c),
            _ => rest[..len].iter().for_each(|b| s += &format!("\\x{:02x}", b)),
        }
        rest = &rest[len..];
    }
    if !rest.is_empty() {
        s += "...";
    }
    s
}
// shared: show end
