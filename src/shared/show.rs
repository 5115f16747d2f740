//! The token quoter: how every program's messages show a token of its
//! input (docs/contract.md). The master of the marked block `show`: the
//! trainer imports this module; scripts/sync-shared copies the block into
//! the four pasted solvers, which must compile alone.

// shared: show begin, master src/shared/show.rs (edit there, then run scripts/sync-shared)
/// A token for a message, the same in every solver: characters as they
/// are, but each byte of a control character or of invalid UTF-8 as `\xNN`;
/// cut after 40 characters with `...`.
pub(crate) fn show(token: &[u8]) -> String {
    let mut s = String::new();
    let mut rest = token;
    let mut count = 0;
    while !rest.is_empty() && count < 40 {
        // The character that starts here, if these bytes are UTF-8.
        let len = match rest[0] {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => 1,
        };
        let text = rest.get(..len).and_then(|b| std::str::from_utf8(b).ok());
        let c = text.and_then(|text| text.chars().next());
        let len = if c.is_some() { len } else { 1 };
        match c {
            Some(c) if !c.is_control() => s.push(c),
            _ => rest[..len].iter().for_each(|b| s += &format!("\\x{:02x}", b)),
        }
        rest = &rest[len..];
        count += 1;
    }
    if !rest.is_empty() {
        s += "...";
    }
    s
}
// shared: show end
