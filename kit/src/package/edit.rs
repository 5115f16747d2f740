//! The `.edit` language a planted submission is written in: find-and-replace
//! blocks applied to our solver's source, so that a planted wrong answer
//! stays one small, reviewed change of the solver as the solver changes.

/// Applies a `.edit` file to `source`: `#` lines outside blocks are
/// comments; each block
///
/// ```text
/// <<<< find
/// text found exactly once
/// ==== replace
/// its replacement
/// >>>>
/// ```
///
/// is applied in order. The newline before `==== replace` and before
/// `>>>>` ends the block's text and is not part of it. Each block scans
/// the whole source: O(blocks x source).
///
/// # Errors
///
/// A line outside a block that is not a comment, a block left open, a find
/// text that occurs 0 or 2+ times in the source, or no block at all: the
/// message (a plain `String`, which the caller turns into a package error
/// naming the file) names the line and the block.
pub fn apply_edit(source: &str, edit: &str) -> std::result::Result<String, String> {
    let mut text = source.to_string();
    let mut lines = edit.lines().enumerate();
    let mut blocks = 0;
    while let Some((at, line)) = lines.next() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if line != "<<<< find" {
            return Err(format!("line {}: expected `<<<< find`, found {line:?}", at + 1));
        }
        let mut find = Vec::new();
        let mut replace = Vec::new();
        let mut in_replace = false;
        let mut closed = false;
        for (_, line) in lines.by_ref() {
            match line {
                "==== replace" if !in_replace => in_replace = true,
                ">>>>" if in_replace => {
                    closed = true;
                    break;
                }
                _ if in_replace => replace.push(line),
                _ => find.push(line),
            }
        }
        if !closed {
            return Err(format!("line {}: a block without `==== replace` and `>>>>`", at + 1));
        }
        let (find, replace) = (find.join("\n"), replace.join("\n"));
        blocks += 1;
        match text.matches(&find).count() {
            1 => text = text.replacen(&find, &replace, 1),
            n => {
                return Err(format!(
                    "block {blocks} (line {}): its find text occurs {n} times in the solver, \
                     not exactly once",
                    at + 1
                ))
            }
        }
    }
    if blocks == 0 {
        return Err("no `<<<< find` block".to_string());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::apply_edit;

    #[test]
    fn an_edit_applies_each_block_once() {
        let edit =
            "# why\n<<<< find\nb\nc\n==== replace\nX\n>>>>\n<<<< find\nd\n==== replace\n>>>>\n";
        assert_eq!(apply_edit("a\nb\nc\nd\n", edit).unwrap(), "a\nX\n\n");
    }

    #[test]
    fn a_find_text_not_exactly_once_is_refused() {
        let edit = "<<<< find\nx\n==== replace\ny\n>>>>\n";
        assert!(apply_edit("x x", edit).unwrap_err().contains("occurs 2 times"));
        assert!(apply_edit("z", edit).unwrap_err().contains("occurs 0 times"));
        assert!(apply_edit("x", "<<<< find\nx\n").unwrap_err().contains("without"));
        assert!(apply_edit("x", "# only a comment\n").is_err());
    }
}
