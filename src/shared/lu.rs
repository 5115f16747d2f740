//! Dense linear systems by LU factorisation: ji_solver's and the trainer's
//! (`eval::solve_chain` builds the systems). The master of the marked block
//! `lu`: scripts/sync-shared copies the block into src/bin/ji_solver.rs;
//! the trainer imports this module and calls [`solve_all`].

/// Solves `a x = b` for each right-hand side `b` of `rhs`, `a` being n x n
/// (row-major): one factorisation for all. `None` if `a` is singular to
/// working precision.
///
/// O(n^3) for the factorisation, O(n^2) per right-hand side.
///
/// # Panics
/// If `a` has fewer than n * n entries or a right-hand side fewer than n.
pub fn solve_all(a: Vec<f64>, n: usize, rhs: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let lu = Lu::new(a, n)?;
    Some(rhs.iter().map(|b| lu.solve(b)).collect())
}

// shared: lu begin, master src/shared/lu.rs (edit there, then run scripts/sync-shared)
/// An LU factorisation with partial pivoting of an m x m matrix.
struct Lu {
    m: usize,
    a: Vec<f64>,
    pivot: Vec<usize>,
}

impl Lu {
    fn new(mut a: Vec<f64>, m: usize) -> Option<Lu> {
        let mut pivot = Vec::with_capacity(m);
        for c in 0..m {
            let p = (c..m)
                .max_by(|&i, &j| a[i * m + c].abs().total_cmp(&a[j * m + c].abs()))
                .unwrap_or(c);
            if a[p * m + c].abs() < 1e-300 {
                return None;
            }
            pivot.push(p);
            for k in 0..m {
                a.swap(c * m + k, p * m + k);
            }
            for i in c + 1..m {
                let f = a[i * m + c] / a[c * m + c];
                a[i * m + c] = f;
                if f != 0.0 {
                    for k in c + 1..m {
                        a[i * m + k] -= f * a[c * m + k];
                    }
                }
            }
        }
        Some(Lu { m, a, pivot })
    }

    fn solve(&self, b: &[f64]) -> Vec<f64> {
        let (m, a) = (self.m, &self.a);
        let mut x = b.to_vec();
        // The rows were swapped whole (multipliers too): permute first.
        for c in 0..m {
            x.swap(c, self.pivot[c]);
        }
        for c in 0..m {
            for i in c + 1..m {
                x[i] -= a[i * m + c] * x[c];
            }
        }
        for c in (0..m).rev() {
            let s: f64 = (c + 1..m).map(|k| a[c * m + k] * x[k]).sum();
            x[c] = (x[c] - s) / a[c * m + c];
        }
        x
    }
}
// shared: lu end
