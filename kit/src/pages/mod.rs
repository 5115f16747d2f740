//! The page builders of `kit show`, one per kind of game page: each runs
//! our solver with its explain flag, reads what it prints, and writes one
//! self-contained web page. Every page is `page.html` with its style, its
//! data (JSON in a `<script type="application/json">`) and its script
//! pasted in ([`page::write_page`]). The problems (`crate::problems`, the
//! layer above) say which page each has; the `show` command, above them,
//! writes it to a file.

pub mod ants;
pub mod ji;
pub mod json;
pub mod page;
pub mod zhuguosha;
