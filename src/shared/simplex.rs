//! Matrix games by the simplex method: ji_solver's stage games and the
//! trainer's equilibrium. The master of the marked block `simplex`:
//! scripts/sync-shared copies the block into src/bin/ji_solver.rs; the
//! trainer imports this module and calls [`matrix_game`] (it uses the
//! coarse tolerances only, so its `mod` line allows the unused rest).

/// The value of the matrix game `a` (rows x cols, rows maximise) and an
/// optimal row strategy: the simplex by Bland's rule (it cannot cycle), on
/// the game shifted to entries >= 1, whose value is 1 / (the optimal sum).
///
/// Each pivot is O(rows * cols); Bland's rule rules out cycling, not an
/// exponential number of pivots.
///
/// # Panics
/// If `a` has fewer than rows * cols entries.
pub fn matrix_game(a: &[f64], rows: usize, cols: usize) -> (f64, Vec<f64>) {
    let mut lp = Simplex::default();
    // ji_solver bounds its work with this pivot counter; here it only counts.
    let mut work = 0;
    let solved = lp.solve(a, rows, cols, Pivoting { tol: COARSE, bland: true }, &mut work);
    let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
    let w = cols + rows + 1;
    let total = lp.tab[rows * w + w - 1];
    // Not solved happens only without rows (no skill to play: nothing
    // ends, worth 0); the uniform strategy then.
    let x = if solved { lp.x } else { vec![1.0 / rows as f64; rows] };
    (if total > 0.0 { 1.0 / total - shift } else { 0.0 }, x)
}

// shared: simplex begin, master src/shared/simplex.rs (edit there, then run scripts/sync-shared)
/// How `Simplex::solve` pivots: its tolerances, and Bland's rule (the
/// smallest index) instead of the steepest reduced cost.
#[derive(Clone, Copy)]
struct Pivoting {
    tol: Tolerances,
    bland: bool,
}

/// A dense simplex for matrix games, with its scratch space.
#[derive(Default)]
struct Simplex {
    tab: Vec<f64>,
    basis: Vec<usize>,
    /// After `solve`: the row and the column player's optimal strategies.
    x: Vec<f64>,
    y: Vec<f64>,
}

/// The simplex's tolerances: a reduced cost above `-cost` counts as
/// optimal, a pivot below `pivot` is refused (tiny pivots can be far off).
#[derive(Clone, Copy)]
struct Tolerances {
    cost: f64,
    pivot: f64,
}

/// Value iteration, the output and the early certify passes: sturdy on
/// degenerate games (a Bland pivot on 1e-12 was off by 1e-5).
const COARSE: Tolerances = Tolerances { cost: 1e-11, pivot: 1e-9 };
/// The late certify passes: probabilities near 1e-12 and below survive
/// (rare moves; 988 instead of 975 of the 1,000 random variants proved,
/// measured with the 48 late passes of then).
const FINE: Tolerances = Tolerances { cost: 1e-16, pivot: 1e-12 };

impl Simplex {
    /// Solves the matrix game `a` (r x c, rows maximise): max sum(y) s.t.
    /// (a + shift) y <= 1, y >= 0; y and its dual x are the strategies.
    /// `bland`: smallest index instead of steepest cost.
    fn solve(&mut self, a: &[f64], r: usize, c: usize, rule: Pivoting, work: &mut u64) -> bool {
        let (cost_eps, pivot_eps, bland) = (rule.tol.cost, rule.tol.pivot, rule.bland);
        let Simplex { tab, basis, x, y } = self;
        let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
        let w = c + r + 1;
        tab.clear();
        tab.resize((r + 1) * w, 0.0);
        for i in 0..r {
            for j in 0..c {
                tab[i * w + j] = a[i * c + j] + shift;
            }
            tab[i * w + c + i] = 1.0;
            tab[i * w + w - 1] = 1.0;
        }
        for j in 0..c {
            tab[r * w + j] = -1.0;
        }
        basis.clear();
        basis.extend(c..c + r);
        for _ in 0..50 * (r + c) + 100 {
            let obj = &tab[r * w..r * w + w - 1];
            let mut enter = usize::MAX;
            let mut best = -cost_eps;
            for (j, &d) in obj.iter().enumerate() {
                if d < best {
                    enter = j;
                    if bland {
                        break;
                    }
                    best = d;
                }
            }
            if enter == usize::MAX {
                // Optimal: y from the basis, x from the slacks' costs.
                y.clear();
                y.resize(c, 0.0);
                for i in 0..r {
                    if basis[i] < c {
                        y[basis[i]] = tab[i * w + w - 1].max(0.0);
                    }
                }
                x.clear();
                x.extend((0..r).map(|i| tab[r * w + c + i].max(0.0)));
                let (sx, sy): (f64, f64) = (x.iter().sum(), y.iter().sum());
                x.iter_mut().for_each(|v| *v /= sx);
                y.iter_mut().for_each(|v| *v /= sy);
                return sx > 0.0 && sy > 0.0;
            }
            let mut leave = usize::MAX;
            let mut ratio = f64::INFINITY;
            for i in 0..r {
                let t = tab[i * w + enter];
                if t > pivot_eps {
                    let q = tab[i * w + w - 1] / t;
                    // Ties: Bland's smallest index, else the largest pivot.
                    let better = leave == usize::MAX
                        || if (q - ratio).abs() <= 1e-12 * ratio.max(1.0) {
                            if bland {
                                basis[i] < basis[leave]
                            } else {
                                t > tab[leave * w + enter]
                            }
                        } else {
                            q < ratio
                        };
                    if better {
                        leave = i;
                        ratio = q.min(ratio);
                    }
                }
            }
            if leave == usize::MAX {
                return false;
            }
            *work += ((r + 1) * w) as u64;
            let p = tab[leave * w + enter];
            for v in &mut tab[leave * w..(leave + 1) * w] {
                *v /= p;
            }
            tab[leave * w + enter] = 1.0;
            for k in (0..=r).filter(|&k| k != leave) {
                let f = tab[k * w + enter];
                if f != 0.0 {
                    for j in 0..w {
                        let v = tab[leave * w + j];
                        tab[k * w + j] -= f * v;
                    }
                    tab[k * w + enter] = 0.0;
                }
            }
            basis[leave] = enter;
        }
        false
    }
}
// shared: simplex end
