//! The words of the reports in the kit's language, and its numbers: counts, figures,
//! shares, intervals and the engine's measures as a class reads them.

use matchbox_engine::game::{Orientation, Side};
use matchbox_engine::i18n::{
    Id, Messages, Said, Strings, count, figure, figure_count, figures, id, number, strings,
};
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::OpponentKind;
use matchbox_engine::simulate::exact::{Figure, Measure};
use matchbox_engine::simulate::stats::{Estimate, Stats};

/// The words `boxes`, `find` and `simulate` print, in the kit's language: `cli.*` of the
/// engine's word store, with numbers written as the language writes them.
#[derive(Clone, Copy)]
pub struct Words {
    pub(crate) strings: &'static Strings,
    pub(crate) say: Messages,
}

impl Words {
    /// The words of `kit`'s language.
    pub fn of(kit: &Kit) -> Words {
        Words {
            strings: strings(kit.language),
            say: Messages(kit.language),
        }
    }

    /// A message with its placeholders filled in.
    pub(crate) fn fill(self, message: Id, values: &[(&str, &str)]) -> String {
        self.strings.fill(message, values)
    }

    /// `n` and a noun in its form for `n` (`problem.count.KEY`).
    pub(crate) fn count(self, n: impl Into<i64>, noun: Id) -> String {
        count(self.say.0, n.into(), noun)
    }

    /// A whole number as the language writes it in running text (`100,000`, `1720`).
    pub(crate) fn number(self, n: impl Into<i64>) -> String {
        number(self.say.0, n.into())
    }

    /// A figure with at most `places` decimals, none needless, and the language's
    /// decimal mark.
    pub(crate) fn decimals(self, x: f64, places: usize) -> String {
        figure(self.say.0, x, places)
    }

    /// A number as a share in per cent, as the language writes it (`39%`, `39 %`).
    pub(crate) fn percent(self, number: &str) -> String {
        self.fill(id::CLI_PERCENT, &[("n", number)])
    }

    /// The opponent as the text names it: `a perfect opponent`, `the fastest teacher`.
    pub(crate) fn opponent(self, opponent: OpponentKind) -> String {
        let name = match opponent {
            OpponentKind::Random => id::CLI_OPPONENT_RANDOM,
            OpponentKind::Perfect => id::CLI_OPPONENT_PERFECT,
            OpponentKind::Teacher => id::CLI_OPPONENT_TEACHER,
            OpponentKind::Machine => id::CLI_OPPONENT_MACHINE,
            OpponentKind::OptimalTeacher => id::CLI_OPPONENT_OPTIMAL_TEACHER,
            OpponentKind::Human => id::CLI_OPPONENT_HUMAN,
        };
        self.fill(name, &[])
    }

    /// The learning rule as the text names it: `rule gardner`, `reguła Gardnera`.
    pub fn rule(self, rule: Rule) -> String {
        self.say.rule(rule.word_key())
    }

    /// The box whose emptying makes a machine give up: box 1 when it plays first, one of
    /// several when it plays second.
    pub(crate) fn first_move_box(self, kit: &Kit) -> String {
        let first_move_box = match kit.machine {
            Side::First => id::CLI_FIRST_MOVE_BOX_FIRST,
            Side::Second => id::CLI_FIRST_MOVE_BOX_SECOND,
        };
        self.fill(first_move_box, &[])
    }

    /// The side the machine plays: `first`, `second`.
    pub(crate) fn side(self, kit: &Kit) -> String {
        self.say.say(kit.machine.key(), &[])
    }

    /// What `find` answers: the box, and how the position lies against its label
    /// (`symmetry`), where it can lie more than one way; where the label is turned or
    /// mirrored, that the moves shown are the label's, not the board's.
    pub(crate) fn found(
        self,
        box_id: impl std::fmt::Display,
        symmetry: Option<Orientation>,
    ) -> String {
        let box_id = box_id.to_string();
        match symmetry {
            None => self.fill(id::CLI_FOUND_PLAIN, &[("id", &box_id)]),
            Some(lies) => {
                let key = if lies == Orientation::AsDrawn {
                    id::CLI_FOUND
                } else {
                    id::CLI_FOUND_TURNED
                };
                let symmetry = self.strings.get(lies.said());
                self.fill(key, &[("id", &box_id), ("symmetry", symmetry)])
            }
        }
    }

    /// An estimate with its 95% confidence interval, scaled, a percentage when
    /// `percent`, with one decimal at most, alike in the three figures.
    pub(crate) fn estimate(self, e: &Estimate, scale: f64, percent: bool) -> String {
        self.interval([e.mean, e.low, e.high].map(|x| x * scale), 1, percent)
    }

    /// A figure and its bounds or interval (`mean`, `low`, `high`) with at most `places`
    /// decimals, alike in the three, as percentages when `percent`.
    pub(crate) fn interval(
        self,
        [mean, low, high]: [f64; 3],
        places: usize,
        percent: bool,
    ) -> String {
        let mean = some_not_all(mean, percent);
        let texts = figures(self.say.0, &[mean, low, high], places);
        let [mean, low, high] = [0, 1, 2].map(|i| self.unit(&texts[i], percent));
        // An interval narrower than the decimals shown is said as the one value it is.
        if low == high {
            return mean;
        }
        self.fill(
            id::CLI_INTERVAL,
            &[("mean", &mean), ("low", &low), ("high", &high)],
        )
    }

    /// Two ends, `low` to `high`, or the one value they round to.
    pub(crate) fn range(self, low: &str, high: &str) -> String {
        if low == high {
            low.to_string()
        } else {
            self.fill(id::CLI_VERIFY_RANGE, &[("low", low), ("high", high)])
        }
    }

    /// A figure's text, as a percentage when `percent`.
    pub(crate) fn unit(self, text: &str, percent: bool) -> String {
        if percent {
            self.percent(text)
        } else {
            text.to_string()
        }
    }

    /// `min 4, max 11, mean 7.9, median 8`: the mean and median of whole counts to a
    /// tenth.
    pub(crate) fn stats(self, s: &Stats) -> String {
        self.fill(
            id::CLI_STATS,
            &[
                ("min", &self.number(s.min)),
                ("max", &self.number(s.max)),
                ("mean", &self.decimals(s.mean, 1)),
                ("median", &self.decimals(s.median, 1)),
            ],
        )
    }

    /// The histogram as rows of `#`, the longest `width` wide, each with its count of
    /// machines, their share of the runs and that share's 95% confidence interval.
    pub(crate) fn histogram(self, s: &Stats, width: usize) -> String {
        s.histogram_with(width, |n, share| {
            self.fill(
                id::CLI_HISTOGRAM_ROW,
                &[
                    ("machines", &self.count(n, id::PROBLEM_COUNT_MACHINE)),
                    ("share", &self.estimate(share, 100.0, true)),
                ],
            )
        })
    }

    /// A finding of the engine's (a check, a claim, a reason) in the kit's language.
    pub(crate) fn said(self, said: &Said) -> String {
        said.in_language(self.say.0)
    }

    /// `x` as a percentage with one decimal at most when `percent`, else with two.
    pub(crate) fn figure(self, x: f64, percent: bool) -> String {
        self.unit(
            &self.decimals(some_not_all(x, percent), places(percent)),
            percent,
        )
    }

    /// A mean number of games and its noun (`12 games`, `98,1 партии`), to a tenth as
    /// every mean of games is, or, when it is not known closely, its bounds or interval
    /// and the noun.
    pub(crate) fn games(self, m: &Measure) -> String {
        match m {
            Measure::Exact(Figure::Exact(f)) => {
                figure_count(self.say.0, f.to_f64(), GAMES_PLACES, GAME, FRACTION_GAME)
            }
            Measure::Exact(Figure::Bounded(b)) if b.high - b.low < 0.005 => figure_count(
                self.say.0,
                (b.low + b.high) / 2.0,
                GAMES_PLACES,
                GAME,
                FRACTION_GAME,
            ),
            other => format!(
                "{} {}",
                self.measure(other, 1.0, false),
                self.strings.get(FRACTION_GAME)
            ),
        }
    }

    /// An exact or sampled figure, scaled, with its bounds or interval.
    pub(crate) fn measure(self, m: &Measure, scale: f64, percent: bool) -> String {
        let figure = |x: f64| self.figure(x * scale, percent);
        match m {
            Measure::Exact(Figure::Exact(f)) => figure(f.to_f64()),
            Measure::Exact(Figure::Bounded(b)) if (b.high - b.low) * scale < 0.005 => {
                figure((b.low + b.high) / 2.0)
            }
            Measure::Exact(Figure::Bounded(b)) => {
                let texts = figures(
                    self.say.0,
                    &[b.low * scale, b.high * scale],
                    places(percent),
                );
                let [low, high] = [0, 1].map(|i| self.unit(&texts[i], percent));
                self.range(&low, &high)
            }
            Measure::Sampled(e) => self.interval(
                [e.mean, e.low, e.high].map(|x| x * scale),
                places(percent),
                percent,
            ),
        }
    }

    /// A figure as a percentage with one decimal at most, e.g. `52%`, `14.8%`.
    pub(crate) fn share(self, f: &Figure) -> String {
        self.percent(&self.decimals(f.to_f64() * 100.0, 1))
    }

    /// A mean with `places` decimals at most, or that the machine may never learn.
    pub(crate) fn mean(self, f: Option<&Figure>, places: usize) -> String {
        f.map_or_else(
            || self.fill(id::CLI_VERIFY_INFINITE, &[]),
            |f| self.decimals(f.to_f64(), places),
        )
    }
}

/// A number of games, and the noun after a fraction of one (`98,1 партии`).
const GAME: Id = id::PROBLEM_COUNT_GAME;
const FRACTION_GAME: Id = id::FRACTION_GAME;

/// Decimals of a mean number of games: a tenth of a game is as close as a class reads it.
pub(crate) const GAMES_PLACES: usize = 1;

/// Decimals of a mean number of losses: two, since a class compares losses that differ
/// by less than one (`10.25` beside `9`).
pub(crate) const LOSSES_PLACES: usize = 2;

/// A percentage kept from rounding to 100% or 0% when it is neither (99.96% is said as
/// 99.9%, beside machines that can still lose); any other figure as it is.
fn some_not_all(x: f64, percent: bool) -> f64 {
    if !percent || x <= 0.0 || x >= 100.0 {
        return x;
    }
    x.clamp(0.1, 99.9)
}

/// Decimals of a figure: one for a percentage, two for a mean count of losses.
fn places(percent: bool) -> usize {
    if percent { 1 } else { LOSSES_PLACES }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_that_is_not_all_or_none_never_reads_as_either() {
        assert_eq!(some_not_all(99.96, true), 99.9);
        assert_eq!(some_not_all(0.02, true), 0.1);
        assert_eq!(some_not_all(100.0, true), 100.0);
        assert_eq!(some_not_all(0.0, true), 0.0);
        assert_eq!(some_not_all(42.17, true), 42.17);
        // A count of games is not a share.
        assert_eq!(some_not_all(99.96, false), 99.96);
    }
}
