//! The judge's side of the package: `input_validators/strict/` (our
//! solver, whose `--validate` is its strict reading: exit 42 valid, 43
//! not), the flag that selects it (`data/testdata.yaml`), and
//! `output_validators/compare/` (kit's comparison rule as one Rust file,
//! with the `build` script that compiles it with rustc; problem.yaml's
//! `validation: custom` selects it).

use super::files::{make_executable, put};
use super::Sources;
use crate::compare::Rule;
use crate::error::Result;
use std::path::Path;

/// The input validator's flags (decision 3 in the project's briefs).
const TESTDATA_YAML: &str = "input_validator_flags: --validate\n";

/// The output validator's template and the comparison rule it inlines
/// (both compiled into kit, so a package judges exactly as this kit does).
const VALIDATOR_TEMPLATE: &str =
    include_str!("../../packages/every_problem/output_validators/compare/compare.rs");
const VALIDATOR_BUILD: &str =
    include_str!("../../packages/every_problem/output_validators/compare/build");
const COMPARE_RS: &str = include_str!("../compare.rs");

/// Writes both validators and data/testdata.yaml below `root`, the output
/// validator judging by `rule`.
///
/// # Errors
///
/// A file that cannot be written (`Error::Write`, naming it).
pub fn write(sources: &Sources, rule: Rule, root: &Path) -> Result<()> {
    let name = sources.name;
    put(&root.join(format!("input_validators/strict/{name}.rs")), sources.solver.as_bytes())?;
    put(&root.join("data/testdata.yaml"), TESTDATA_YAML.as_bytes())?;
    let compare = root.join("output_validators/compare");
    put(&compare.join("compare.rs"), output_validator(rule).as_bytes())?;
    put(&compare.join("build"), VALIDATOR_BUILD.as_bytes())?;
    make_executable(&compare.join("build"))
}

/// The package's output validator, one file: the template
/// kit/packages/every_problem/output_validators/compare/compare.rs with
/// kit/src/compare.rs inlined as its `mod compare` and `rule` as its `RULE`.
fn output_validator(rule: Rule) -> String {
    let module = format!("mod compare {{\n{COMPARE_RS}}}");
    let generated = "// Written by `kit package` from kit/packages/every_problem/\n\
                     // output_validators/compare/compare.rs and kit/src/compare.rs:\n\
                     // edit those, not this copy.\n";
    format!("{generated}{VALIDATOR_TEMPLATE}")
        .replacen("#[path = \"../../../../src/compare.rs\"]\n", "", 1)
        .replacen("mod compare;", &module, 1)
        .replacen(
            "const RULE: Rule = Rule::Exact;",
            &format!("const RULE: Rule = Rule::{rule:?};"),
            1,
        )
}

#[cfg(test)]
mod tests {
    use super::{output_validator, COMPARE_RS};
    use crate::compare::Rule;

    #[test]
    fn the_output_validator_is_one_file_with_the_problems_rule() {
        let exact = output_validator(Rule::Exact);
        assert!(!exact.contains("#[path") && !exact.contains("mod compare;"));
        assert!(exact.contains(&format!("mod compare {{\n{COMPARE_RS}}}")));
        assert!(exact.contains("const RULE: Rule = Rule::Exact;"));
        let tolerant = output_validator(Rule::Tolerance(1e-6));
        assert!(tolerant.contains("const RULE: Rule = Rule::Tolerance(1e-6);"), "{tolerant}");
    }
}
