//! [`KnownOptimal`]: the shortest solution known for each instance, against which the rows of
//! algorithms without an optimality guarantee are judged as they are written.

use std::collections::HashMap;

use crate::instances::InstanceSource;
use crate::results::{Outcome, Row};

/// The shortest solution lengths known so far, per instance: the instance files' `optimal`
/// columns and the solutions of optimal built-in algorithms (earlier sessions' rows included).
/// Rows of algorithms that do not guarantee optimality are compared with them as they are
/// written ([`KnownOptimal::judge`]); the runner runs those jobs last.
pub(super) struct KnownOptimal {
    lengths: HashMap<(String, String), u32>,
}

impl KnownOptimal {
    pub(super) fn new(sources: &[InstanceSource], rows: &[Row]) -> KnownOptimal {
        let mut lengths = HashMap::new();
        for s in sources {
            for (i, inst) in s.set.instances.iter().enumerate() {
                if let Some(n) = s.known_optimal(i) {
                    lengths.insert((s.name.clone(), inst.id.clone()), n);
                }
            }
        }
        let mut known = KnownOptimal { lengths };
        for r in rows {
            known.learn(r);
        }
        known
    }

    /// Takes the length of an optimal algorithm's solution.
    fn learn(&mut self, row: &Row) {
        if row.status == Outcome::Solved
            && row.optimal == Some(true)
            && let Some(n) = row.moves
        {
            self.lengths
                .entry((row.instance_file.clone(), row.instance_id.clone()))
                .or_insert(n);
        }
    }

    /// Fills `known_optimal` and `suboptimal` of a row without an optimality guarantee, or
    /// learns from one with it. A solution shorter than the known optimum (a wrong `optimal`
    /// column, or a bug) is noted in `message`.
    pub(super) fn judge(&mut self, row: &mut Row) {
        if row.optimal == Some(true) {
            self.learn(row);
            return;
        }
        let key = (row.instance_file.clone(), row.instance_id.clone());
        let Some(&best) = self.lengths.get(&key) else {
            return;
        };
        row.known_optimal = Some(best);
        if row.status == Outcome::Solved
            && let Some(n) = row.moves
        {
            row.suboptimal = Some(n > best);
            if n < best {
                let note = format!(
                    "shorter than the known optimal length {best}: the instance file's optimal \
                     column or an optimal algorithm is wrong"
                );
                row.message = Some(match row.message.take() {
                    Some(m) => format!("{m}; {note}"),
                    None => note,
                });
            }
        }
    }
}
