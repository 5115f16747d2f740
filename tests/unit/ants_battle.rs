use super::*;
use kit::rng::Rng;

fn run(input: &str) -> Result<String, Failure> {
    let mut out = Vec::new();
    solve(input.as_bytes().to_vec(), &Options::default(), &mut out, &mut io::sink())?;
    Ok(String::from_utf8(out).unwrap())
}

/// The map rows of the output, without the `m ` prefix.
fn rows_after(input: &str) -> Vec<String> {
    run(input).unwrap().lines().filter_map(|l| l.strip_prefix("m ").map(str::to_string)).collect()
}

fn battle_of(mode: &str, r2: u32, rows: &[&str]) -> Vec<String> {
    let mut text =
        format!("rows {}\ncols {}\nattackradius2 {r2}\nattack {mode}\n", rows.len(), rows[0].len());
    for r in rows {
        text.push_str(&format!("m {r}\n"));
    }
    rows_after(&text)
}

fn err(input: &str) -> String {
    run(input).unwrap_err().to_string()
}

#[test]
fn one_on_one_both_die_in_focus() {
    let got = battle_of("focus", 5, &[".....", ".ab..", "....."]);
    assert_eq!(got, [".....", ".....", "....."]);
}

#[test]
fn sandwich_kills_only_the_middle() {
    let got = battle_of("focus", 5, &[".......", ".a.b.a.", "......."]);
    assert_eq!(got[1], ".a...a.");
}

#[test]
fn three_players_all_die_when_all_in_range() {
    let got = battle_of("focus", 5, &["......", ".a.b..", "..c...", "......"]);
    assert!(got.iter().all(|r| r.chars().all(|c| c == '.')), "{got:?}");
}

#[test]
fn a_dead_ant_on_its_hill_leaves_the_hill_digit() {
    let got = battle_of("focus", 5, &["......", ".Ab...", "......", "......"]);
    assert_eq!(got[1], ".0....");
}

#[test]
fn water_food_and_hills_never_change() {
    let got = battle_of("support", 5, &["%*0.", "a1b.", "....", "...."]);
    assert_eq!(got, ["%*0.", ".1..", "....", "...."]);
}

#[test]
fn radius_zero_and_one_cell_maps_have_no_battle() {
    assert_eq!(battle_of("focus", 0, &["ab", "ba"]), ["ab", "ba"]);
    assert_eq!(battle_of("support", 100, &["a"]), ["a"]);
    assert_eq!(battle_of("damage", 100, &["A"]), ["A"]);
}

#[test]
fn multiplicity_counts_an_enemy_twice_on_a_narrow_map() {
    // 1 x 2 map, r2 = 1: offsets (0,-1) and (0,1) both land on the
    // other cell, so each ant's list holds its enemy twice; (+-1, 0)
    // land on the ant itself and never count.
    let map = map_of(1, 2, 1, AttackMode::Focus, b"ab".to_vec());
    let field = Field::new(&map, Vec::new(), 1);
    let disk = attack_disk(1);
    let mut weak = vec![0u8; 2];
    weakness_plane::<u8>(&field, &disk, &mut weak);
    assert_eq!(weak, [2, 2]);
}

#[test]
fn support_kills_every_ant_with_an_enemy() {
    let got = battle_of("support", 1, &["......", ".ab.a.", "......"]);
    assert_eq!(got[1], "....a.");
}

#[test]
fn damage_of_exactly_one_kills() {
    // r2 = 1, 2 x 2 block: each ant has two enemies of weakness 2:
    // 1/2 + 1/2 = 1.
    let got = battle_of("damage", 1, &["....", ".ab.", ".ba.", "...."]);
    assert_eq!(got[1], "....");
    assert_eq!(got[2], "....");
}

#[test]
fn damage_below_one_spares() {
    // `b` has one enemy whose weakness is 2: damage 1/2.
    let got = battle_of("damage", 1, &[".....", ".bab.", "....."]);
    assert_eq!(got[1], ".b.b.");
}

#[test]
fn closest_fights_below_r2_but_not_at_r2() {
    // r2 = 5: `a`..`b` at distance 4 fight, `c`..`d` at 5 do not.
    let map = ["........", ".a.b....", "........", "....c...", "......d."];
    let got = battle_of("closest", 5, &map);
    assert_eq!(got, ["........", "........", "........", "....c...", "......d."]);
}

#[test]
fn closest_chain_links_friends_through_enemies() {
    // a-b-a at distance 1 form one group: all three die at d = 1, and
    // the far `b` (distance 4 from the right `a`) survives because its
    // enemy is gone before d = 4.
    let got = battle_of("closest", 5, &["..........", ".aba.b....", ".........."]);
    assert_eq!(got[1], ".....b....");
}

#[test]
fn closest_nearer_pairs_fight_first() {
    // b is at 1 from a and at 4 from c: a and b die at d = 1, c lives.
    let got = battle_of("closest", 5, &[".........", ".ab.c....", "........."]);
    assert_eq!(got[1], "....c....");
}

#[test]
fn transposed_maps_give_the_same_battle() {
    let rows = ["a.b.", "bba.", ".ab.", "a..b", "b.a.", ".bb.", "aa.b"];
    let cols: Vec<String> =
        (0..4).map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
    let col_refs: Vec<&str> = cols.iter().map(String::as_str).collect();
    for mode in ["focus", "support", "damage", "closest"] {
        for r2 in [1, 2, 5, 10, 25] {
            let tall = battle_of(mode, r2, &rows);
            let wide = battle_of(mode, r2, &col_refs);
            for (c, col) in wide.iter().enumerate() {
                let from_tall: String = tall.iter().map(|r| r.as_bytes()[c] as char).collect();
                assert_eq!(&from_tall, col, "{mode} r2={r2}");
            }
        }
    }
}

#[test]
fn header_is_normalised_and_optional_keys_stay_out() {
    let out = run("# c\n\nattack damage\ncols 2\nm ..\nrows 1\nscore 3\n").unwrap();
    assert_eq!(out, "rows 1\ncols 2\nattack damage\nm ..\n");
    let out = run("rows 1\ncols 2\nattackradius2 007\nplayers 10\nm ab\n").unwrap();
    assert_eq!(out, "rows 1\ncols 2\nplayers 10\nattackradius2 7\nm ..\n");
}

#[test]
fn crlf_input_gives_the_same_output() {
    let lf = "rows 2\ncols 3\nplayers 2\nm ab.\nm ...\n";
    assert_eq!(run(&lf.replace('\n', "\r\n")).unwrap(), run(lf).unwrap());
    let bad = "rows 1\r\ncols 2\r\nm a\r\n";
    assert_eq!(err(bad), "line 3: map row has 1 cells, expected 2");
}

#[test]
fn bad_inputs_name_their_line() {
    // Most messages are pinned by the fixtures in tests/data/ants_battle/bad.
    assert_eq!(err(""), "line 1: empty input");
    let short = "line 4: map row has 1 cells, expected 2";
    assert_eq!(err("rows 2\ncols 2\nm ..\nm .\n"), short);
    assert!(err("players 2\nrows 1\ncols 2\nm .c\n").starts_with("line 4: ant `c`"));
    assert!(err("attackradius2 x\n").starts_with("line 1: attackradius2"));
    assert!(err("rows 5001\ncols 5000\n").contains("over the limit"));
    assert!(err("rows 0\n").contains("positive"));
    assert!(err("rows 1\nrows 1\n").contains("duplicate"));
}

/// `parse_args` on these arguments, or its failure's exit code and message.
fn args(list: &[&str]) -> Result<Command, (i32, String)> {
    let list = list.iter().map(OsString::from);
    parse_args(list).map_err(|f| (f.exit_code(), f.to_string()))
}

#[test]
fn options_follow_the_contract() {
    let run = |threads, explain| Ok(Options { strict: false, threads, explain });
    let options = |list: &[&str]| match args(list) {
        Ok(Command::Run(options)) => Ok(options),
        Ok(Command::Help) => Err((0, "help".to_string())),
        Err(failure) => Err(failure),
    };
    assert_eq!(options(&[]), run(1, false));
    assert_eq!(options(&["--threads", "7", "--explain"]), run(7, true));
    assert_eq!(options(&["--threads", "auto"]), run(0, false));
    assert_eq!(options(&["--threads", "64"]), run(64, false));
    // `--help` anywhere wins, over bad arguments too.
    for list in [
        &["--help"][..],
        &["-h"],
        &["--explain", "--help"],
        &["--threads", "0", "-h"],
        &["--x", "--help"],
        &["--threads", "--help"],
    ] {
        assert!(matches!(args(list), Ok(Command::Help)), "{list:?}");
    }
    let refused = |list: &[&str], what: &str| {
        assert_eq!(args(list).unwrap_err(), (2, format!("{what} (see --help)")));
    };
    refused(&["--x"], "unknown option '--x'");
    refused(&["x"], "unexpected argument 'x'");
    // A lone `-` is an argument, not an option (every program alike).
    refused(&["-"], "unexpected argument '-'");
    refused(&["--threads"], "option '--threads' needs a value");
    let why = "not 1..64 or auto";
    refused(&["--threads", "0"], &format!("bad value '0' for --threads: {why}"));
    refused(&["--threads", "65"], &format!("bad value '65' for --threads: {why}"));
    refused(&["--threads", "x"], &format!("bad value 'x' for --threads: {why}"));
}

#[test]
#[cfg(unix)]
fn a_non_utf8_argument_is_refused() {
    use std::os::unix::ffi::OsStringExt;
    for list in [vec![b"--\xff".to_vec()], vec![b"--threads".to_vec(), b"\xff".to_vec()]] {
        let failure = parse_args(list.into_iter().map(OsString::from_vec)).unwrap_err();
        assert_eq!(failure.exit_code(), 2);
        let what = "an argument is not valid UTF-8 (see --help)";
        assert_eq!(failure.to_string(), what);
    }
}

#[test]
fn failures_have_the_contract_codes_and_words() {
    let input = Failure::UnreadableInput("gone".to_string());
    assert_eq!((input.exit_code(), input.to_string()), (1, "cannot read the input: gone".into()));
    let output = Failure::UnwritableOutput("full".to_string());
    let words = "cannot write the output: full".to_string();
    assert_eq!((output.exit_code(), output.to_string()), (1, words));
    let bad = run("rows x\n").unwrap_err();
    assert!(matches!(bad, Failure::BadInput { line: 1, .. }), "{bad:?}");
    assert_eq!(bad.exit_code(), 2);
}

/// A writer that refuses every write.
struct Full;

impl Write for Full {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::Other, "no space"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_unwritable_output_is_a_failure_not_a_panic() {
    let input = b"rows 1\ncols 2\nm ab\n".to_vec();
    let failure = solve(input, &Options::default(), &mut Full, &mut io::sink()).unwrap_err();
    assert_eq!(failure.to_string(), "cannot write the output: no space");
}

#[test]
fn players_may_exceed_the_owners_present() {
    let out = run("rows 1\ncols 3\nplayers 10\nm a.b\n").unwrap();
    assert!(out.ends_with("m ...\n"), "{out}");
}

#[test]
fn big_numbers_divide_and_multiply_back() {
    let mut x = Big::from(1);
    for w in 2..=316u64 {
        x.mul_small(w);
        if x.limbs[0] != 0 {
            break;
        }
    }
    let (q, r) = x.div_small(97);
    let mut back = q;
    back.mul_small(97);
    back.add(&Big::from(r));
    assert_eq!(back, x);
    assert!(Big::from(3) < Big::from(4));
}

/// The terms of a count-per-denominator table.
fn terms(count: &[u64]) -> Vec<DamageTerm> {
    let present = count.iter().enumerate().skip(1).filter(|x| *x.1 > 0);
    let term = |(w, &k): (usize, &u64)| DamageTerm { weakness: w as u64, count: k };
    present.map(term).collect()
}

#[test]
fn exact_sums_decide_ties() {
    let mut count = [0u64; 317];
    count[3] = 3;
    assert!(reaches_one(&terms(&count)) && reaches_one_big(&terms(&count)));
    count[3] = 2;
    count[4] = 1;
    assert!(!reaches_one(&terms(&count)) && !reaches_one_big(&terms(&count)));
    count[12] = 1; // 2/3 + 1/4 + 1/12 = 1
    assert!(reaches_one(&terms(&count)) && reaches_one_big(&terms(&count)));
    let mut count = [0u64; 317];
    count[313] = 313; // a prime: 313/313
    assert!(reaches_one(&terms(&count)));
    count[313] = 312;
    assert!(!reaches_one(&terms(&count)));
}

#[test]
fn row_check_finds_bad_bytes_and_owners() {
    let check = |row: &[u8]| {
        let found = row_check(row);
        (found.has_bad_byte, found.owners)
    };
    assert_eq!(check(b".%*"), (false, 0));
    assert_eq!(check(b"aJ9"), (false, 10));
    assert_eq!(check(b"k"), (true, 0));
    assert!(check(b"\x0e").0); // `| 0x20` would make it '.'
    assert!(check(b"K").0);
    assert_eq!(cell_owner(b'c'), Some(2));
}

#[test]
fn every_job_runs_once_whatever_threads_are_granted() {
    // helpers = 0 is what a judge refusing every thread gets.
    for helpers in [0, 1, 3] {
        let mut plane = vec![0u32; 10 * 3];
        let bands = bands(10, 4);
        assert_eq!(bands.len(), 4);
        let jobs = bands.iter().cloned().zip(split_rows(&mut plane, &bands, 3));
        let work = |(band, part): (Range<usize>, &mut [u32])| {
            for (k, x) in part.iter_mut().enumerate() {
                *x += (band.start * 3 + k) as u32 + 1;
            }
        };
        run_jobs_with(jobs.collect(), helpers, work);
        assert_eq!(plane, (1..=30).collect::<Vec<u32>>(), "helpers {helpers}");
    }
    run_jobs(Vec::<u8>::new(), |_| panic!("no job"));
}

fn map_of(rows: usize, cols: usize, r2: u64, mode: AttackMode, cells: Vec<u8>) -> Map {
    let (players, radius2, mode) = (None, Some(r2), Some(mode));
    Map { rows, cols, players, radius2, mode, cells }
}

/// A random map over the characters of `palette`.
fn random_map(
    rows: usize,
    cols: usize,
    r2: u64,
    mode: AttackMode,
    seed: u64,
    palette: &[u8],
) -> Map {
    let mut rng = Rng::new(seed);
    let cells = (0..rows * cols).map(|_| palette[rng.index(palette.len())]);
    map_of(rows, cols, r2, mode, cells.collect())
}

#[test]
fn the_battle_is_the_same_with_one_band_or_many() {
    let mut deaths = 0;
    for (rows, cols) in [(13, 40), (40, 13), (9, 9), (2, 31)] {
        use AttackMode::*;
        for mode in [Focus, Support, Damage, Closest] {
            for r2 in [1, 5, 25, 100] {
                let seed = (rows * 1000 + cols) as u64 + r2;
                let mut one = random_map(rows, cols, r2, mode, seed, b"abcAB.%0....");
                let before = one.cells.clone();
                battle(&mut one, Vec::new(), 1);
                deaths += before.iter().zip(&one.cells).filter(|x| x.0 != x.1).count();
                for threads in [2, 3, 7] {
                    let mut many = random_map(rows, cols, r2, mode, seed, b"abcAB.%0....");
                    battle(&mut many, Vec::new(), threads);
                    assert_eq!(many.cells, one.cells, "{rows}x{cols} {mode:?} {r2} {threads}");
                }
            }
        }
    }
    assert!(deaths > 1000, "{deaths}");
}

// ------------------------------------------------------------ naive model ----
//
// The rule transcribed directly, sharing nothing with the solver: for each
// ant its enemy list by scanning the attack disk with wrap-around, then the
// mode's rule, in O(ants * disk) (closest: O(ants^2) per map), with exact
// fractions of the model's own big integers for damage.

/// A natural number in base 2^32, least significant digit first, no
/// leading zero digits (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Nat(Vec<u32>);

impl Nat {
    fn of(v: u32) -> Nat {
        Nat(if v == 0 { vec![] } else { vec![v] }).trimmed()
    }

    fn trimmed(mut self) -> Nat {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn times(&self, m: u32) -> Nat {
        let mut carry = 0u64;
        let mut out: Vec<u32> = self
            .0
            .iter()
            .map(|&d| {
                let t = u64::from(d) * u64::from(m) + carry;
                carry = t >> 32;
                t as u32
            })
            .collect();
        out.push(carry as u32);
        Nat(out).trimmed()
    }

    fn plus(&self, o: &Nat) -> Nat {
        let mut carry = 0u64;
        let out = (0..self.0.len().max(o.0.len()) + 1).map(|i| {
            let t = u64::from(*self.0.get(i).unwrap_or(&0))
                + u64::from(*o.0.get(i).unwrap_or(&0))
                + carry;
            carry = t >> 32;
            t as u32
        });
        Nat(out.collect()).trimmed()
    }

    /// (self / d, self mod d).
    fn div_rem(&self, d: u32) -> (Nat, u32) {
        let mut rem = 0u64;
        let mut q = vec![0u32; self.0.len()];
        for i in (0..self.0.len()).rev() {
            let cur = (rem << 32) | u64::from(self.0[i]);
            q[i] = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        (Nat(q).trimmed(), rem as u32)
    }

    fn mul(&self, o: &Nat) -> Nat {
        let mut acc = Nat::of(0);
        for (k, &digit) in o.0.iter().enumerate() {
            let mut part = self.times(digit);
            part.0.splice(0..0, std::iter::repeat(0).take(k)); // times 2^(32k)
            acc = acc.plus(&part.trimmed());
        }
        acc
    }

    fn at_least(&self, o: &Nat) -> bool {
        if self.0.len() != o.0.len() {
            return self.0.len() > o.0.len();
        }
        self.0.iter().rev().cmp(o.0.iter().rev()) != std::cmp::Ordering::Less
    }
}

fn gcd32(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd32(b, a % b)
    }
}

/// An exact fraction num / den, den > 0.
#[derive(Clone, Debug)]
struct Frac {
    num: Nat,
    den: Nat,
}

impl Frac {
    fn zero() -> Frac {
        Frac { num: Nat::of(0), den: Nat::of(1) }
    }

    /// self + 1 / w over the common denominator lcm(den, w).
    fn plus_unit(&self, w: u32) -> Frac {
        let g = gcd32(self.den.div_rem(w).1, w);
        let (den_g, _) = self.den.div_rem(g);
        Frac { num: self.num.times(w / g).plus(&den_g), den: self.den.times(w / g) }
    }
}

fn model_owner(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'j' => Some(b - b'a'),
        b'A'..=b'J' => Some(b - b'A'),
        _ => None,
    }
}

/// The cells of the enemy list of the ant in `cell` (one entry per offset
/// of the disk whose wrapped cell holds an ant of another owner).
fn model_enemies(
    rows: usize,
    cols: usize,
    r2: i64,
    owners: &[Option<u8>],
    cell: usize,
) -> Vec<usize> {
    let (r, c) = ((cell / cols) as i64, (cell % cols) as i64);
    let mut list = Vec::new();
    for dr in -10i64..=10 {
        for dc in -10i64..=10 {
            let d = dr * dr + dc * dc;
            if d == 0 || d > r2 {
                continue;
            }
            let y = (r + dr).rem_euclid(rows as i64) as usize;
            let x = (c + dc).rem_euclid(cols as i64) as usize;
            let other = y * cols + x;
            if matches!(owners[other], Some(o) if Some(o) != owners[cell]) {
                list.push(other);
            }
        }
    }
    list
}

/// Squared toroidal distance: per axis min(|delta|, size - |delta|).
fn model_distance(rows: usize, cols: usize, a: usize, b: usize) -> usize {
    let axis = |p: usize, q: usize, size: usize| {
        let d = p.abs_diff(q);
        d.min(size - d)
    };
    let dr = axis(a / cols, b / cols, rows);
    let dc = axis(a % cols, b % cols, cols);
    dr * dr + dc * dc
}

/// The naive model's battle, per cell: the enemy list, whether the ant
/// dies, the closest step at which it dies, the damage it receives.
struct Model {
    list: Vec<Vec<usize>>,
    dead: Vec<bool>,
    step: Vec<usize>,
    received: Vec<Frac>,
}

fn model(rows: usize, cols: usize, r2: u64, mode: AttackMode, cells: &[u8]) -> Model {
    let owners: Vec<Option<u8>> = cells.iter().map(|&b| model_owner(b)).collect();
    let ants: Vec<usize> = (0..cells.len()).filter(|&i| owners[i].is_some()).collect();
    let mut list = vec![Vec::new(); cells.len()];
    for &a in &ants {
        list[a] = model_enemies(rows, cols, r2 as i64, &owners, a);
    }
    let w = |a: usize| list[a].len();
    let mut dead = vec![false; cells.len()];
    let mut step = vec![0; cells.len()];
    let mut received = vec![Frac::zero(); cells.len()];
    match mode {
        AttackMode::Focus => {
            for &a in &ants {
                dead[a] = w(a) > 0 && list[a].iter().any(|&e| w(e) <= w(a));
            }
        }
        AttackMode::Support => {
            for &a in &ants {
                dead[a] = !list[a].is_empty();
            }
        }
        AttackMode::Damage => {
            // "every ant x with w(x) > 0 deals 1/w(x) to each entry of its
            // enemy list".
            for &x in &ants {
                for &e in &list[x] {
                    received[e] = received[e].plus_unit(w(x) as u32);
                }
            }
            for &a in &ants {
                dead[a] = received[a].num.at_least(&received[a].den);
            }
        }
        AttackMode::Closest => {
            let mut edges = vec![Vec::new(); r2 as usize];
            for (i, &a) in ants.iter().enumerate() {
                for &b in &ants[i + 1..] {
                    let d = model_distance(rows, cols, a, b);
                    if owners[a] != owners[b] && d < r2 as usize {
                        edges[d].push((a, b));
                    }
                }
            }
            for (d, edges) in edges.iter().enumerate().skip(1) {
                // Union-find over the living ants joined at this distance.
                let mut parent: Vec<usize> = (0..cells.len()).collect();
                fn root(p: &mut [usize], mut x: usize) -> usize {
                    while p[x] != x {
                        x = p[x];
                    }
                    x
                }
                for &(a, b) in edges.iter().filter(|&&(a, b)| !dead[a] && !dead[b]) {
                    let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                    parent[ra] = rb;
                }
                let mut size = vec![0usize; cells.len()];
                for &a in ants.iter().filter(|&&a| !dead[a]) {
                    size[root(&mut parent, a)] += 1;
                }
                let dying: Vec<usize> = ants
                    .iter()
                    .copied()
                    .filter(|&a| !dead[a] && size[root(&mut parent, a)] >= 2)
                    .collect();
                for a in dying {
                    (dead[a], step[a]) = (true, d);
                }
            }
        }
    }
    Model { list, dead, step, received }
}

/// The map after the battle, by the naive model.
fn model_battle(rows: usize, cols: usize, r2: u64, mode: AttackMode, cells: &[u8]) -> Vec<u8> {
    let dead = model(rows, cols, r2, mode, cells).dead;
    let after = cells.iter().zip(&dead).map(|(&b, &d)| match (d, b) {
        (false, _) => b,
        (true, b'A'..=b'J') => b - b'A' + b'0',
        (true, _) => b'.',
    });
    after.collect()
}

const MODES: [AttackMode; 4] =
    [AttackMode::Focus, AttackMode::Support, AttackMode::Damage, AttackMode::Closest];

/// A random map of `players` owners (some maybe absent) at a random density.
fn random_cells(rng: &mut Rng, rows: usize, cols: usize, players: usize) -> Vec<u8> {
    let density = 1 + rng.index(9); // tenths of the cells hold ants
    (0..rows * cols)
        .map(|_| {
            if rng.index(10) < density {
                let o = rng.index(players) as u8;
                if rng.index(8) == 0 {
                    b'A' + o
                } else {
                    b'a' + o
                }
            } else {
                b".....%*0"[rng.index(8)]
            }
        })
        .collect()
}

/// Checks the solver's battle against the model on one map; returns the
/// number of deaths.
fn check_against_model(
    rows: usize,
    cols: usize,
    r2: u64,
    mode: AttackMode,
    cells: Vec<u8>,
    threads: usize,
) -> usize {
    let expected = model_battle(rows, cols, r2, mode, &cells);
    let text = String::from_utf8(cells.clone()).unwrap();
    let mut map = map_of(rows, cols, r2, mode, cells);
    battle(&mut map, Vec::new(), threads);
    assert_eq!(
        String::from_utf8(map.cells.clone()).unwrap(),
        String::from_utf8(expected.clone()).unwrap(),
        "{rows}x{cols} r2={r2} {mode:?} threads={threads} map {text}"
    );
    text.bytes().zip(&expected).filter(|(a, b)| a != *b).count()
}

/// A decimal number as the model's natural.
fn nat_of(decimal: &str) -> Nat {
    let digits = decimal.bytes().map(|d| u32::from(d - b'0'));
    digits.fold(Nat::of(0), |n, d| n.times(10).plus(&Nat::of(d)))
}

/// Checks `--explain` against the model: the `w` rows, and each `dead`
/// line's reason.
fn check_explain(rows: usize, cols: usize, r2: u64, mode: AttackMode, cells: &[u8]) {
    let m = model(rows, cols, r2, mode, cells);
    let mut input =
        format!("rows {rows}\ncols {cols}\nattackradius2 {r2}\nattack {}\n", mode.name());
    for row in cells.chunks(cols) {
        input.push_str(&format!("m {}\n", String::from_utf8(row.to_vec()).unwrap()));
    }
    let mut out = Vec::new();
    let explain = Options { explain: true, ..Options::default() };
    solve(input.clone().into_bytes(), &explain, &mut out, &mut io::sink()).unwrap();
    let out = String::from_utf8(out).unwrap();
    let (_, text) = out.split_once("explain\n").expect("an explain line");
    let mut lines = text.lines();
    for r in 0..rows {
        let want: String = (r * cols..(r + 1) * cols)
            .map(|i| match (model_owner(cells[i]), m.list[i].len()) {
                (None, _) => '.',
                (_, w @ 0..=9) => (b'0' + w as u8) as char,
                _ => '+',
            })
            .collect();
        assert_eq!(lines.next(), Some(format!("w {want}").as_str()), "{input}");
    }
    let w = |i: usize| m.list[i].len();
    let dead: Vec<usize> = (0..cells.len()).filter(|&i| m.dead[i]).collect();
    for (&i, line) in dead.iter().zip(lines.by_ref()) {
        let owner = model_owner(cells[i]).unwrap();
        let head = format!("dead {} {} {owner} ", i / cols, i % cols);
        let reason =
            line.strip_prefix(&head).unwrap_or_else(|| panic!("{line} for {head}\n{input}"));
        match mode {
            AttackMode::Focus => {
                let e = m.list[i].iter().copied().min_by_key(|&e| (w(e), e)).unwrap();
                let want =
                    format!("focus by {} {} w={} enemy_w={}", e / cols, e % cols, w(i), w(e));
                assert_eq!(reason, want, "{input}");
            }
            AttackMode::Support => assert_eq!(reason, format!("support enemies={}", w(i))),
            AttackMode::Closest => assert_eq!(reason, format!("closest d={}", m.step[i])),
            AttackMode::Damage => {
                let (num, den) = reason
                    .strip_prefix("damage ")
                    .and_then(|f| f.split_once('/'))
                    .unwrap_or_else(|| panic!("{reason}"));
                let (num, den) = (nat_of(num), nat_of(den));
                let got = &m.received[i];
                // num / den = got exactly, in lowest terms.
                assert_eq!(num.mul(&got.den), got.num.mul(&den), "{reason}\n{input}");
                for p in 2..=316u32 {
                    assert!(num.div_rem(p).1 != 0 || den.div_rem(p).1 != 0, "{reason}");
                }
            }
        }
    }
    assert_eq!(lines.next(), None, "{input}");
}

#[test]
fn explain_matches_the_model() {
    let mut rng = Rng::new(12);
    for _ in 0..300 {
        let (rows, cols) = (1 + rng.index(12), 1 + rng.index(12));
        let r2 = [rng.index(101), rng.index(26), rng.index(6)][rng.index(3)] as u64;
        let players = 2 + rng.index(4);
        let cells = random_cells(&mut rng, rows, cols, players);
        for mode in MODES {
            check_explain(rows, cols, r2, mode, &cells);
        }
    }
}

#[test]
fn every_mode_matches_the_naive_model_on_small_tori() {
    // Tori smaller than the disk: one enemy is listed several times, and
    // offsets wrap onto the ant itself.
    let mut rng = Rng::new(2011);
    let mut deaths = [0usize; 4];
    for _ in 0..600 {
        let (rows, cols) = (1 + rng.index(9), 1 + rng.index(9));
        let r2 = [rng.index(101), rng.index(26), rng.index(6)][rng.index(3)] as u64;
        let spread = [2, 3, 9][rng.index(3)];
        let players = 2 + rng.index(spread);
        let cells = random_cells(&mut rng, rows, cols, players);
        for (k, mode) in MODES.into_iter().enumerate() {
            deaths[k] += check_against_model(rows, cols, r2, mode, cells.clone(), 1);
        }
    }
    assert!(deaths.iter().all(|&d| d > 500), "deaths per mode {deaths:?}");
}

#[test]
fn every_mode_matches_the_naive_model_on_wider_maps() {
    // Rows long enough for the sweep's register blocks and the sliding
    // windows, tall maps (transposed), and several bands.
    let mut rng = Rng::new(5);
    for &(rows, cols) in &[(7, 170), (170, 7), (23, 29), (3, 150), (12, 40)] {
        for r2 in [1, 2, 5, 13, 25, 50, 81, 100] {
            let players = 2 + rng.index(5);
            let cells = random_cells(&mut rng, rows, cols, players);
            for mode in MODES {
                let threads = 1 + rng.index(3);
                check_against_model(rows, cols, r2, mode, cells.clone(), threads);
            }
        }
    }
}

/// The ants whose damage takes the solver's exact fallback (T < K <
/// T + w(a), see `damage`) with a denominator lcm of 2^100 or more (the
/// 512-bit path).
fn big_fallback_ants(rows: usize, cols: usize, r2: u64, cells: &[u8]) -> usize {
    let owners: Vec<Option<u8>> = cells.iter().map(|&b| model_owner(b)).collect();
    let ants = (0..cells.len()).filter(|&a| owners[a].is_some());
    let lists: Vec<Vec<usize>> =
        (0..cells.len()).map(|a| model_enemies(rows, cols, r2 as i64, &owners, a)).collect();
    let k = u64::from(DAMAGE_UNIT);
    let two_100 = Nat::of(1 << 25).times(1 << 25).times(1 << 25).times(1 << 25);
    let hard = |&a: &usize| {
        let mut t = 0u64;
        let mut lcm = Nat::of(1);
        for &e in &lists[a] {
            let w = lists[e].len() as u32;
            t += k / u64::from(w);
            let g = gcd32(lcm.div_rem(w).1, w);
            lcm = lcm.times(w / g);
        }
        lcm.at_least(&two_100) && t < k && k < t + lists[a].len() as u64
    };
    ants.filter(hard).count()
}

#[test]
fn damage_matches_the_model_where_the_512_bit_path_decides() {
    // Small dense tori at large N give enemies many different weaknesses
    // (the lcm passes 2^100); keep maps until enough ants fall between
    // the filter's bounds and so take the 512-bit exact sum.
    let mut rng = Rng::new(316);
    let (mut hard, mut maps) = (0, 0);
    while hard < 20 {
        maps += 1;
        assert!(maps < 20_000, "only {hard} hard ants");
        let (rows, cols) = (3 + rng.index(6), 3 + rng.index(6));
        let r2 = 60 + rng.index(41) as u64;
        let players = 2 + rng.index(6);
        let cells = random_cells(&mut rng, rows, cols, players);
        let found = big_fallback_ants(rows, cols, r2, &cells);
        if found > 0 {
            hard += found;
            check_against_model(rows, cols, r2, AttackMode::Damage, cells, 1);
        }
    }
    eprintln!("{hard} hard ants in {maps} maps");
}

#[test]
fn exact_sums_match_the_model_fractions() {
    // reaches_one on random term sets, many with large prime
    // denominators (the 512-bit path), and sums of exactly 1 or just below.
    let mut rng = Rng::new(97);
    for round in 0..3000 {
        let mut count = [0u64; 317];
        for _ in 0..1 + rng.index(40) {
            let w = if round % 2 == 0 { 1 + rng.index(316) } else { 200 + rng.index(117) };
            count[w] += 1 + rng.index(3) as u64;
        }
        if round % 3 == 0 {
            // (w - 1)/w + 2/(2w) = 1 exactly, or 1/(2w) short of it.
            count = [0u64; 317];
            let w = 1 + rng.index(158);
            count[w] += w as u64 - 1;
            count[2 * w] += 1 + (round % 2) as u64;
        }
        let mut frac = Frac::zero();
        for (w, &k) in count.iter().enumerate() {
            for _ in 0..k {
                frac = frac.plus_unit(w as u32);
            }
        }
        let want = frac.num.at_least(&frac.den);
        let t = terms(&count);
        assert_eq!(reaches_one(&t), want, "{t:?}");
        assert_eq!(reaches_one_big(&t), want, "{t:?}");
    }
}

// ---- --strict ---------------------------------------------------------------

fn strict_options() -> Options {
    Options { strict: true, ..Options::default() }
}

fn run_strict(input: &[u8]) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::new();
    solve(input.to_vec(), &strict_options(), &mut out, &mut io::sink())?;
    Ok(out)
}

fn strict_err(input: &str) -> String {
    run_strict(input.as_bytes()).unwrap_err().to_string()
}

#[test]
fn strict_refusals_name_line_and_column() {
    let head = "rows 2\ncols 3\nplayers 2\n";
    let cases: &[(String, &str)] = &[
        ("".into(), "line 1 column 1: empty input"),
        ("rows 2\n".into(), "line 2 column 1: the input ends before the `cols` line"),
        ("cols 3\nrows 2\n".into(), "line 1 column 1: expected the `rows` line, found `cols 3`"),
        ("rows 2\nm ...\n".into(), "line 2 column 1: expected the `cols` line, found `m ...`"),
        (format!("{head}players 2\n"), "line 4 column 1: `players` line out of order or repeated"),
        ("rows 1\ncols 1\nattack focus\nplayers 2\nm .\n".into(), "line 4 column 1: `players`"),
        ("rows 1\ncols 1\nscore 3\nm .\n".into(), "line 3 column 1: unknown header line `score 3`"),
        ("rows 1\ncols 1\n# map\nm .\n".into(), "line 3 column 1: unknown header line `# map`"),
        (format!("{head}\nm ab.\nm ...\n"), "line 4 column 1: blank line"),
        ("rows  2\n".into(), "line 1 column 6: a space in the `rows` line"),
        ("rows 2 \n".into(), "line 1 column 7: a space in the `rows` line"),
        ("rows\t2\n".into(), "line 1 column 1: expected the `rows` line, found `rows\\x092`"),
        ("rows 2\r\n".into(), "line 1 column 7: a carriage return in the `rows` line"),
        ("rows\n".into(), "line 1 column 5: missing value after `rows`"),
        ("rows 02\n".into(), "line 1 column 6: leading zero in `02`"),
        ("rows +2\n".into(), "line 1 column 6: expected a number, found `+2`"),
        ("rows 0\n".into(), "line 1 column 6: rows must be 1..25000000, found 0"),
        ("rows 5001\ncols 5000\n".into(), "line 2 column 6: map of 5001 x 5000 cells over"),
        ("rows 1\ncols 1\nplayers 11\n".into(), "line 3 column 9: players must be 2..10, found 11"),
        ("rows 1\ncols 1\nattackradius2 00\n".into(), "line 3 column 15: leading zero in `00`"),
        ("rows 1\ncols 1\nattackradius2 101\n".into(), "line 3 column 15: attackradius2 must be"),
        ("rows 1\ncols 1\nattack Focus\n".into(), "line 3 column 8: unknown attack mode `Focus`"),
        ("rows 1\ncols 1\nattack focus".into(), "line 3 column 13: no newline at the end"),
        (head.to_string(), "line 4 column 1: the input ends before the first of 2 map rows"),
        (format!("{head}m ab.\n"), "line 5 column 1: the input ends after 1 of 2 map rows"),
        (format!("{head}m ab.\nm ..\n"), "line 5 column 5: map row has 2 cells, expected 3"),
        (format!("{head}m ab.\nm ....\n"), "line 5 column 6: map row has 4 cells, expected 3"),
        (format!("{head}m ab.\nm ... \n"), "line 5 column 6: a space in a map row"),
        (format!("{head}m ab.\nm .x.\n"), "line 5 column 4: unknown cell character `x`"),
        (format!("{head}m ab.\r\nm ...\n"), "line 4 column 6: a carriage return"),
        (format!("{head}m ab.\nm ..."), "line 5 column 6: no newline at the end of the last"),
        (format!("{head}m ab.\nm.. .\n"), "line 5 column 1: expected map row 2 of 2"),
        (
            format!("{head}m ab.\nm .c2\n"),
            "line 5 column 4: ant `c` of player 2 not below players 2 (line 3)",
        ),
        (format!("{head}m ab.\nm ..2\n"), "line 5 column 5: hill `2` of player 2 not below"),
        (
            format!("{head}m ab.\nm ...\nm ...\n"),
            "line 6 column 1: nothing may follow the last map row",
        ),
        (format!("{head}m ab.\nm ...\n\n"), "line 6 column 1: nothing may follow the last map row"),
    ];
    for (input, want) in cases {
        let got = strict_err(input);
        assert!(got.starts_with(want), "{input:?}: {got:?}, expected {want:?}...");
        let failure = run_strict(input.as_bytes()).unwrap_err();
        assert!(matches!(failure, Failure::BadLayout { .. }), "{input:?}: {failure:?}");
        assert_eq!(failure.exit_code(), 2);
    }
}

/// `--strict` accepts exactly what it promises and, on what it accepts,
/// answers what the lenient reading answers.
#[test]
fn strict_accepts_the_canonical_form_with_the_lenient_answer() {
    let inputs = [
        "rows 1\ncols 1\nm .\n",
        "rows 2\ncols 3\nattackradius2 0\nm ab.\nm ...\n",
        "rows 2\ncols 3\nplayers 10\nattackradius2 100\nattack damage\nm ajJ\nm 9*%\n",
        "rows 1\ncols 5\nattack closest\nm a.b.a\n",
    ];
    for input in inputs {
        let strict = run_strict(input.as_bytes()).unwrap_or_else(|f| panic!("{input:?}: {f}"));
        assert_eq!(String::from_utf8(strict).unwrap(), run(input).unwrap(), "{input:?}");
    }
}

#[test]
fn every_kit_generated_input_is_strict() {
    let ants = kit::problems::find("ants_battle").unwrap();
    for profile in ants.profiles().iter().filter(|p| !p.name.starts_with("big")) {
        for seed in 0..40 {
            let input = (profile.generate)(&mut Rng::new(seed));
            let strict = run_strict(input.as_bytes());
            let strict = strict.unwrap_or_else(|f| panic!("{} seed {seed}: {f}", profile.name));
            assert_eq!(String::from_utf8(strict).unwrap(), run(&input).unwrap());
        }
    }
    // The 4 MB benchmark map, once.
    let input = ants.generate("big", &mut Rng::new(1)).unwrap();
    assert!(parse(input.as_bytes(), true).is_ok());
}

/// The edits of problemtools' validator check, and a few more: each makes
/// a strict input non-strict (and the lenient reading still copes).
fn mutations(input: &str) -> Vec<String> {
    let mut out = vec![
        input.replacen(' ', "  ", 1),
        input.replacen('\n', " \n", 1),
        input.replacen('\n', "\n\n", 1),
        input.replace('\n', "\r\n"),
        format!("{input}\n"),
        format!("# comment\n{input}"),
        input.strip_suffix('\n').unwrap().to_string(),
        format!("{input}alsdkfjlkasdfjla"),
        input.replacen("rows ", "rows 0", 1),
        input.replacen("cols ", "cols 0", 1),
    ];
    for key in ["players ", "attackradius2 "] {
        if input.contains(key) {
            out.push(input.replacen(key, &format!("{key}0"), 1));
        }
    }
    // The header lines swapped, and the last map row dropped.
    let lines: Vec<&str> = input.lines().collect();
    let mut swapped = lines.clone();
    swapped.swap(0, 1);
    out.push(swapped.join("\n") + "\n");
    out.push(lines[..lines.len() - 1].join("\n") + "\n");
    out
}

#[test]
fn strict_refuses_every_mutation_and_agrees_with_the_lenient_reading() {
    let ants = kit::problems::find("ants_battle").unwrap();
    let mut refused = 0;
    for seed in 0..60 {
        let input = ants.generate("random", &mut Rng::new(seed)).unwrap();
        let lenient = run(&input).unwrap();
        for (k, m) in mutations(&input).into_iter().enumerate() {
            if m == input {
                continue;
            }
            let failure = run_strict(m.as_bytes()).unwrap_err();
            assert!(matches!(failure, Failure::BadLayout { .. }), "seed {seed} #{k}: {failure}");
            refused += 1;
            // Whitespace-only edits keep the lenient answer.
            if k < 7 {
                assert_eq!(run(&m).unwrap(), lenient, "seed {seed} mutation {k}");
            }
        }
    }
    assert!(refused > 60 * 10, "{refused}");
}

/// Strict-valid always means lenient-valid with the same answer: random
/// byte edits of strict inputs that `--strict` accepts answer as the
/// lenient reading does.
#[test]
fn what_strict_accepts_parses_to_the_same_map() {
    let mut rng = Rng::new(7);
    let alphabet = b" \n\r\t.%*aAjJ09km#0123456789rowscolplayerattackradius2focus";
    let mut accepted = 0;
    for seed in 0..400 {
        let ants = kit::problems::find("ants_battle").unwrap();
        let mut input = ants.generate("tiny_torus", &mut Rng::new(seed)).unwrap().into_bytes();
        for _ in 0..rng.index(3) {
            let at = rng.index(input.len() + 1);
            match rng.index(3) {
                0 if at < input.len() => input[at] = alphabet[rng.index(alphabet.len())],
                1 if at < input.len() => drop(input.remove(at)),
                _ => input.insert(at, alphabet[rng.index(alphabet.len())]),
            }
        }
        if parse(&input, true).is_ok() {
            accepted += 1;
            let text = String::from_utf8(input.clone()).unwrap();
            assert_eq!(run_strict(&input).unwrap(), run(&text).unwrap().into_bytes());
        }
    }
    assert!(accepted > 100, "{accepted}");
}

#[test]
fn strict_is_an_option() {
    assert_eq!(args(&["--strict"]), Ok(Command::Run(strict_options())));
}
