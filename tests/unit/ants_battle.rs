use super::*;

fn run(input: &str) -> Result<String, Failure> {
    let mut out = Vec::new();
    solve(input.as_bytes(), &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

/// The map rows of the output, without the `m ` prefix.
fn rows_after(input: &str) -> Vec<String> {
    run(input)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("m ").map(str::to_string))
        .collect()
}

fn battle_of(mode: &str, r2: u32, rows: &[&str]) -> Vec<String> {
    let mut text = format!(
        "rows {}\ncols {}\nattackradius2 {r2}\nattack {mode}\n",
        rows.len(),
        rows[0].len()
    );
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
    weakness_plane::<u8>(&field, &disk, &mut weak, &mut []);
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
    assert_eq!(
        got,
        ["........", "........", "........", "....c...", "......d."]
    );
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
    let cols: Vec<String> = (0..4)
        .map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect())
        .collect();
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
        if x.0[0] != 0 {
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

/// The (w, k) terms of a count-per-denominator table.
fn terms(count: &[u64]) -> Vec<(u64, u64)> {
    let present = count.iter().enumerate().skip(1).filter(|x| *x.1 > 0);
    present.map(|(w, &k)| (w as u64, k)).collect()
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
fn the_wide_path_agrees_with_the_narrow_one() {
    // Many prime denominators push the lcm past 2^100; floating point
    // is trusted only where the margin is wide.
    let mut seed = 7u64;
    let mut next = || lcg(&mut seed) >> 33;
    for _ in 0..2000 {
        let mut count = [0u64; 317];
        let n_terms = 1 + next() % 60;
        for _ in 0..n_terms {
            count[1 + (next() % 316) as usize] += 1;
        }
        let f: f64 = count
            .iter()
            .enumerate()
            .skip(1)
            .map(|(w, &k)| k as f64 / w as f64)
            .sum();
        let exact = reaches_one(&terms(&count));
        assert_eq!(exact, reaches_one_big(&terms(&count)));
        if (f - 1.0).abs() > 1e-9 {
            assert_eq!(exact, f >= 1.0, "{count:?}");
        }
    }
}

#[test]
fn the_damage_filter_matches_exact_sums_at_radius_100() {
    // Dense 3-player map at r2 = 100: every ant's received damage,
    // computed exactly term by term, decides its fate.
    let (rows, cols) = (23usize, 29usize);
    let mut map = random_map(rows, cols, 100, AttackMode::Damage, 11, b"abc.......");
    let field = Field::new(&map, Vec::new(), 1);
    let disk = attack_disk(100);
    assert_eq!(disk.len(), 316);
    let mut weak = vec![0u16; rows * cols];
    weakness_plane::<u16>(&field, &disk, &mut weak, &mut []);
    battle(&mut map, Vec::new(), 1);
    for r in 0..rows {
        for c in 0..cols {
            let me = field.owner[r * cols + c];
            if me == NO_ANT {
                continue;
            }
            let dies = exact_damage_reaches_one(&field, &disk, &weak, r, c);
            let dead = map.cells[r * cols + c] == b'.';
            assert_eq!(dies, dead, "cell {r},{c}");
        }
    }
}

#[test]
fn row_check_finds_bad_bytes_and_owners() {
    assert_eq!(row_check(b".%*"), (false, 0));
    assert_eq!(row_check(b"aJ9"), (false, 10));
    assert_eq!(row_check(b"k"), (true, 0));
    assert!(row_check(b"\x0e").0); // `| 0x20` would make it '.'
    assert!(row_check(b"K").0);
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

fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x
}

fn map_of(rows: usize, cols: usize, r2: u64, mode: AttackMode, cells: Vec<u8>) -> Map {
    let (players, radius2, mode) = (None, Some(r2), Some(mode));
    Map {
        rows,
        cols,
        players,
        radius2,
        mode,
        cells,
    }
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
    let mut x = seed;
    let cells = (0..rows * cols).map(|_| palette[(lcg(&mut x) >> 40) as usize % palette.len()]);
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
                    assert_eq!(
                        many.cells, one.cells,
                        "{rows}x{cols} {mode:?} {r2} {threads}"
                    );
                }
            }
        }
    }
    assert!(deaths > 1000, "{deaths}");
}
