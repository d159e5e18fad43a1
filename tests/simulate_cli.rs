//! The `simulate`, `verify` and `play` commands, run as a user runs them.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod support;

fn matchbox(args: &[&str]) -> Command {
    let mut cmd = support::matchbox();
    cmd.args(args)
        .env_remove("NO_COLOR")
        .env_remove("RAYON_NUM_THREADS");
    cmd
}

fn run(args: &[&str]) -> Output {
    matchbox(args).output().expect("the binary runs")
}

/// Runs `play` with `input` piped to stdin.
fn play(args: &[&str], input: &str) -> Output {
    let mut child = matchbox(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that stops early (a refused state file) may close its stdin before
    // reading it: the broken pipe is expected then, and the exit status tells the rest.
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    support::scratch(&format!("sim-{name}"))
}

#[test]
fn runs_report_the_losses_to_learn() {
    let v = json(&run(&[
        "simulate", "--preset", "hexapawn", "--runs", "300", "--seed", "5", "--json",
    ]));
    assert_eq!(v["runs"], 300);
    assert_eq!(v["unfinished"], 0);
    let losses = &v["losses_to_learn"];
    let histogram: u64 = losses["histogram"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(histogram, 300);
    assert!(losses["min"].as_u64().unwrap() <= losses["max"].as_u64().unwrap());
    assert!(v["games_to_learn"]["mean"].as_f64().unwrap() >= losses["mean"].as_f64().unwrap());
}

#[test]
fn the_same_seed_gives_the_same_figures_on_one_thread_or_two() {
    let args = [
        "simulate",
        "--preset",
        "bachet",
        "--runs",
        "400",
        "--opponent",
        "random",
        "--seed",
        "11",
        "--json",
    ];
    let on = |threads: &str| {
        matchbox(&args)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap()
    };
    let one = on("1");
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(one.stdout, on("2").stdout);
    let mut other_seed = args;
    other_seed[8] = "12";
    assert_ne!(one.stdout, run(&other_seed).stdout);
}

#[test]
fn one_machine_over_many_games_with_its_curve_and_csv() {
    let dir = temp_dir("games");
    let csv = dir.join("games.csv");
    let v = json(&run(&[
        "simulate",
        "--preset",
        "menace",
        "--games",
        "1000",
        "--opponent",
        "random",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
    ]));
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 1000);
    let curve = v["curve"].as_array().unwrap();
    assert_eq!(curve[0]["game"], 0);
    let last = curve.last().unwrap();
    assert_eq!(
        (last["game"].as_u64(), last["wins"].as_u64()),
        (Some(1000), Some(w))
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 1001);
    assert!(rows.starts_with("game,result,"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_learning_curve_is_drawn_as_svg_or_png() {
    let dir = temp_dir("plot");
    let svg = dir.join("curve.svg");
    let png = dir.join("curve.png");
    for path in [&svg, &png] {
        let o = run(&[
            "simulate",
            "--preset",
            "hexapawn",
            "--games",
            "100",
            "--plot",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("<svg")
            && text.contains("games played")
            && text.contains("100 games against a perfect opponent"),
        "{text}"
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mistakes_in_the_flags_are_refused() {
    let both = run(&[
        "simulate", "--preset", "hexapawn", "--runs", "3", "--games", "3",
    ]);
    assert_eq!(both.status.code(), Some(2));
    let neither = run(&["simulate", "--preset", "hexapawn"]);
    assert_eq!(neither.status.code(), Some(2));
    let csv = run(&[
        "simulate", "--preset", "hexapawn", "--runs", "3", "--csv", "x.csv",
    ]);
    assert_eq!(csv.status.code(), Some(2));
    let human = run(&[
        "simulate",
        "--preset",
        "hexapawn",
        "--runs",
        "3",
        "--opponent",
        "human",
    ]);
    assert_eq!(human.status.code(), Some(2));
    assert!(
        stderr(&human).contains("matchbox play"),
        "{}",
        stderr(&human)
    );
    let plot = run(&[
        "simulate",
        "--preset",
        "hexapawn",
        "--games",
        "3",
        "--plot",
        "curve.pdf",
    ]);
    assert_eq!(plot.status.code(), Some(2), "{}", stderr(&plot));
    assert!(stderr(&plot).contains(".svg or .png"));
}

#[test]
fn verify_sets_the_claim_beside_the_measurement() {
    for preset in ["hexapawn", "bachet", "bachet-relay"] {
        let o = run(&["verify", "--preset", preset, "--runs", "200"]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{preset}: {text}{}", stderr(&o));
        assert!(text.contains("ok      every box is reachable"), "{text}");
        assert!(
            text.contains("Claim (") && text.contains("the claim holds"),
            "{text}"
        );
    }
    let o = run(&[
        "verify",
        "--preset",
        "hexapawn-first",
        "--runs",
        "50",
        "--json",
    ]);
    let v = json(&o);
    assert!(v["claim"].is_null());
    assert_eq!(v["checks"].as_array().unwrap().len(), 4);
}

#[test]
fn verify_checks_the_reward_claim_of_hers_article() {
    let v = json(&run(&["verify", "--preset", "hexapawn", "--json"]));
    let r = &v["reward"];
    assert!(
        r["claim"]["text"].as_str().unwrap().contains("first 20"),
        "{r}"
    );
    let rows = r["rows"].as_array().unwrap();
    let cells: Vec<(&str, u64)> = rows
        .iter()
        .map(|row| {
            (
                row["opponent"].as_str().unwrap(),
                row["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("perfect", 20),
            ("perfect", 50),
            ("perfect", 100),
            ("random", 20),
            ("random", 50),
            ("random", 100)
        ]
    );
    // Without rewards the states are finite: exact, in bounds; with them, sampled.
    let without = &rows[0]["gardner"];
    let (low, high) = (
        without["low"].as_f64().unwrap(),
        without["high"].as_f64().unwrap(),
    );
    assert!(low <= 6.4925853824 && 6.4925853824 <= high, "{without}");
    assert!(rows[0]["gardner_reward"]["mean"].is_f64(), "{}", rows[0]);
    assert_eq!(rows[0]["fewer"], true);
    assert_eq!(r["holds"], true);
    let text = stdout(&run(&["verify", "--preset", "hexapawn"]));
    assert!(
        text.contains("Reward claim (the Polish classroom sheet)"),
        "{text}"
    );
    assert!(
        text.contains("the first half of the claim holds: with rewards the machine loses fewer of its first 20 games"),
        "{text}"
    );
    // No other kit's article makes the claim.
    let v = json(&run(&["verify", "--preset", "bachet", "--json"]));
    assert!(v["reward"].is_null(), "{v}");
}

#[test]
fn a_machine_that_cannot_learn_is_told_so_with_what_it_does_instead() {
    // HIM loses every game to a perfect opponent until its first box is empty, and then
    // gives up there for ever: worked out exactly, never "unfinished".
    let o = run(&["verify", "--preset", "hexapawn-first"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    for line in [
        "Cannot learn to stop losing: the machine plays first, the side that loses this game against best play, so a perfect opponent beats it in every game.",
        "What it does instead, against a perfect opponent (worked out exactly over",
        "it gives up at its first move for good",
        "on average after 12 games, having won 0 of them",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    // The chances by game stop where they stop changing: almost every machine has given
    // up by game 20 (not all: 99.9%, never rounded up to 100%).
    let chances = text
        .lines()
        .find(|l| l.contains("the chance that it has given up"));
    assert!(
        chances.is_some_and(|l| l.ends_with("game 20: 99.9%")),
        "{text}"
    );
    let v = json(&run(&[
        "verify",
        "--preset",
        "hexapawn-first",
        "--opponent",
        "random",
        "--json",
    ]));
    assert_eq!(v["method"], "exact");
    assert!(v["exact"].is_null() && v["measured"].is_null(), "{v}");
    let instead = &v["cannot_learn"]["instead"];
    assert_eq!(instead["opponent"], "random");
    let by = instead["by_game"].as_object().unwrap();
    assert_eq!(by.keys().collect::<Vec<_>>(), ["10", "100", "20", "50"]);
    let wins = instead["mean_wins"]["low"].as_f64().unwrap();
    assert!((28.0..29.0).contains(&wins), "{instead}");
    // There is nothing for the fastest teacher to teach.
    let o = run(&[
        "verify",
        "--preset",
        "hexapawn-first",
        "--opponent",
        "optimal-teacher",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a perfect opponent beats it in every game"),
        "{}",
        stderr(&o)
    );
    // Simulated machines stop when they give up, and say why.
    let o = run(&["simulate", "--preset", "hexapawn-first", "--runs", "300"]);
    let text = stdout(&o);
    for line in [
        "against a perfect opponent it can never stop losing",
        "emptied box 1 and gave up for good: 300; still playing after 100,000 games: 0",
        "games until it gave up: min ",
        // A perfect opponent leaves a machine of the losing side no win to count, and
        // none of them learns: neither is dressed up as figures.
        "none of them won a game before giving up",
        "300 fresh machines played against a perfect opponent",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    assert!(!text.contains("no machine became certain"), "{text}");
    assert!(!text.contains("won until then"), "{text}");
    // Under Michie's rule the class refills the first box, whatever the kit: a custom
    // kit whose side loses never gives up for good, in `verify` and `simulate` alike.
    let dir = temp_dir("refilled");
    let kit = dir.join("kit.yaml");
    std::fs::write(&kit, "preset: hexapawn-first\nrule: menace\n").unwrap();
    let kit = kit.to_str().unwrap();
    let text = stdout(&run(&["verify", kit, "--runs", "20"]));
    assert!(
        text.contains("its first box is refilled whenever it runs empty")
            && text.contains("was refilled, as the teacher’s page says")
            && !text.contains("gave up for good"),
        "{text}"
    );
    let text = stdout(&run(&[
        "simulate",
        kit,
        "--runs",
        "20",
        "--max-games",
        "500",
    ]));
    assert!(
        text.contains("gave up for good: 0; still playing after 500 games: 20"),
        "{text}"
    );
}

#[test]
fn simulate_says_the_draws_where_a_game_has_them_and_what_its_histogram_counts() {
    let text = stdout(&run(&[
        "simulate",
        "--preset",
        "menace",
        "--runs",
        "10",
        "--max-games",
        "300",
    ]));
    for line in [
        "share of games drawn (mean over the machines): ",
        "no machine became certain never to lose again within 300 games",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let text = stdout(&run(&["simulate", "--preset", "hexapawn", "--runs", "10"]));
    assert!(!text.contains("games drawn"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(" | #")).collect();
    assert!(
        !rows.is_empty()
            && rows
                .iter()
                .all(|r| r.contains(" machines: ") || r.contains(" machine: ")),
        "{text}"
    );
}

#[test]
fn verify_proves_the_claims_exactly_with_fractions_in_json() {
    let o = run(&["verify", "--preset", "bachet-relay", "--json"]);
    let v = json(&o);
    assert_eq!(v["method"], "exact");
    assert_eq!(v["exact"]["perfect"]["losses"]["6"], "1/1");
    assert_eq!(v["claim"]["holds"], true);
    let o = run(&["verify", "--preset", "hexapawn"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    for line in [
        "Method: exact",
        // Exact shares and means with no needless decimals, the thousands grouped.
        "    9 losses: 25%",
        "    11 losses: 50%",
        "mean: 10.25 losses, 98 games, worked out exactly",
        "worst case: no opponent can make it lose more than",
        "lose more than 16 games",
        "but not against every opponent",
        "claimed (the Polish classroom sheet): about 40 games",
        "the fastest trainer: 21.5 games, 9 losses",
        // Each source's claim judged on its own: the Polish sheet's "exactly 11" holds
        // in half the machines, the 40 games for a trainer.
        "Claim (the Polish classroom sheet, read as “at most”):\n",
        "Claim (the Polish classroom sheet):\n  read as “exactly”: HER learns after exactly 11 lost games\n  true of 50% of the machines only",
        "the claim is plausible only for an opponent who sets out to teach: the fastest trainer needs 21.5 games on average, a perfect opponent who does not try to teach needs 98 games",
        // The reward rows are the booklet's own run.
        "these are the booklet’s own figures (200 machines, random seed 1962): reproduced",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
}

#[test]
fn verify_repeats_the_booklets_run_of_machines_refilled_as_the_page_says() {
    let o = run(&["verify", "--preset", "menace"]);
    let text = stdout(&o);
    for line in [
        "Both source articles mention Michie’s machine (1961",
        "200 machines against a perfect opponent (random seed 1962)",
        "these are the booklet’s own figures (200 machines, random seed 1962): reproduced",
        "draws in games 101–200: 96.5%",
        "the first box ran empty in 119 of the 200 machines and was refilled",
        // The kit skips forced moves: only the 2,201 positions with a choice need a box.
        "every position where the machine has a choice of moves has a box: 2,201 positions",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    assert!(!text.contains("gave up for good"), "{text}");
    // A larger run is labelled as not the booklet's.
    let o = run(&["verify", "--preset", "menace", "--runs", "300"]);
    let text = stdout(&o);
    assert!(
        text.contains("not the booklet’s run (200 machines, random seed 1962)"),
        "{text}"
    );
}

#[test]
fn verify_works_out_the_figures_against_the_opponent_asked_for() {
    // The same shape of JSON for every opponent, its figures under `exact.against`.
    let keys = |v: &Value| {
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    let perfect = json(&run(&["verify", "--preset", "bachet", "--json"]));
    assert_eq!(perfect["opponent"], "perfect");
    assert_eq!(perfect["exact"]["against"], perfect["exact"]["perfect"]);
    for (opponent, same_as) in [
        ("teacher", Some("teacher")),
        ("optimal-teacher", Some("fastest_teacher")),
        ("random", None),
    ] {
        let v = json(&run(&[
            "verify",
            "--preset",
            "bachet",
            "--opponent",
            opponent,
            "--json",
        ]));
        assert_eq!(keys(&v), keys(&perfect), "{opponent}");
        assert_eq!(keys(&v["exact"]), keys(&perfect["exact"]), "{opponent}");
        assert_eq!(v["opponent"], opponent);
        let against = &v["exact"]["against"];
        assert_eq!(against["opponent"], opponent);
        assert_eq!(keys(against), keys(&perfect["exact"]["perfect"]));
        if let Some(field) = same_as {
            assert_eq!(against, &v["exact"][field], "{opponent}");
        }
    }
    // HER against a random opponent: 9 to 16 losses, so Gardner's "at most 11" fails.
    let o = run(&["verify", "--preset", "hexapawn", "--opponent", "random"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{text}");
    for line in [
        "against a random opponent, losses before the machine can no longer lose:",
        "    16 losses: 0.2%",
        "mean: 11.17 losses, 129.3 games",
        "the claim DOES NOT HOLD against a random opponent",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    // A sampled kit is trained against the opponent asked for; the fastest teacher
    // exists only where the exact path does, and a second machine is no verdict.
    let v = json(&run(&[
        "verify",
        "--preset",
        "menace",
        "--opponent",
        "random",
        "--runs",
        "20",
        "--json",
    ]));
    assert_eq!(v["method"], "sampled");
    assert_eq!(v["opponent"], "random");
    assert_eq!(v["watch"]["opponent"], "random");
    for (opponent, says) in [
        ("optimal-teacher", "optimal-teacher"),
        ("machine", "possible values"),
    ] {
        let o = run(&[
            "verify",
            "--preset",
            "menace",
            "--opponent",
            opponent,
            "--runs",
            "5",
        ]);
        assert_eq!(o.status.code(), Some(2), "{opponent}");
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
}

#[test]
fn sampled_verify_gives_every_mean_and_share_a_confidence_interval() {
    // Rewards add beads: no exact path, so HER under gardner-reward is sampled.
    let dir = temp_dir("sampled-verify");
    let kit = dir.join("kit.yaml");
    std::fs::write(&kit, "preset: hexapawn\nrule: gardner-reward\n").unwrap();
    let kit = kit.to_str().unwrap();
    let o = run(&["verify", "--kit", kit, "--runs", "300"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    assert!(
        text.contains("Method: simulation (a sample of 300 machines)")
            && text.contains("Student’s t for means")
            && text.contains("Wilson score for shares"),
        "{text}"
    );
    // Each loss count's share, the unfinished share, the means: each with its interval.
    let histogram: Vec<&str> = text.lines().filter(|l| l.contains(" | #")).collect();
    assert!(histogram.len() >= 2, "{text}");
    for line in histogram.iter().chain(
        text.lines()
            .filter(|l| {
                l.contains("could still lose after the last game of the run")
                    || l.contains("draws in games")
            })
            .collect::<Vec<_>>()
            .iter(),
    ) {
        assert!(line.contains("% (95% CI "), "{line}");
    }
    assert!(text.contains("95% CI of the means: losses "), "{text}");
    let v = json(&run(&["verify", "--kit", kit, "--runs", "300", "--json"]));
    assert_eq!(v["method"], "sampled");
    assert!(v["intervals"].as_str().unwrap().contains("Wilson"), "{v}");
    let m = &v["measured"];
    let within = |e: &Value| {
        let (low, mean, high) = (e["low"].as_f64(), e["mean"].as_f64(), e["high"].as_f64());
        low <= mean && mean <= high && low < high
    };
    assert!(
        within(&m["unfinished_share"]) || m["unfinished"] == 0,
        "{m}"
    );
    for stats in [&m["losses_to_learn"], &m["games_to_learn"]] {
        assert!(within(&stats["mean_interval"]), "{stats}");
        let shares = stats["shares"].as_object().unwrap();
        assert_eq!(shares.len(), stats["histogram"].as_object().unwrap().len());
        let total: f64 = shares.values().map(|e| e["mean"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9, "{stats}");
        assert!(shares.values().all(within), "{stats}");
    }
    assert!(within(&v["watch"]["stopped_share"]) || v["watch"]["stopped_runs"] == 300);
    assert!(within(&v["watch"]["stopped_losing"]), "{v}");
    // On the exact path there is nothing sampled to give an interval to.
    let v = json(&run(&["verify", "--preset", "bachet-relay", "--json"]));
    assert!(v["intervals"].is_null(), "{v}");
}

#[test]
fn verify_gives_menace_figures_to_watch_with_confidence_intervals() {
    let o = run(&["verify", "--preset", "menace", "--runs", "40"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("Method: simulation (a sample of 40 machines)"),
        "{text}"
    );
    assert!(text.contains("Michie’s MENACE rule adds beads"), "{text}");
    assert!(text.contains("draws in games 101–200: "), "{text}");
    assert!(text.contains("(95% CI "), "{text}");
    let v = json(&run(&[
        "verify", "--preset", "menace", "--runs", "40", "--json",
    ]));
    let windows = v["watch"]["windows"].as_array().unwrap();
    assert_eq!(windows.len(), 4);
    // Against a perfect opponent MENACE draws more as it learns.
    let share = |w: &serde_json::Value| w["draws"]["mean"].as_f64().unwrap();
    assert!(share(&windows[3]) > share(&windows[0]), "{v}");
    assert_eq!(v["watch"]["first_box_start"], 12);
}

#[test]
fn the_optimal_teacher_plays_its_computed_strategy() {
    let o = run(&[
        "simulate",
        "--preset",
        "bachet",
        "--opponent",
        "optimal-teacher",
        "--runs",
        "300",
        "--json",
    ]);
    let v = json(&o);
    assert_eq!(v["unfinished"], 0, "{v}");
    assert_eq!(v["losses_to_learn"]["min"], 12);
    let o = run(&[
        "simulate",
        "--preset",
        "menace",
        "--opponent",
        "optimal-teacher",
        "--runs",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("optimal-teacher"), "{}", stderr(&o));
}

#[test]
fn play_reads_moves_from_a_pipe_and_refuses_a_bad_one() {
    let o = play(
        &["play", "--preset", "bachet", "--seed", "3"],
        "take 5\n3\n1\n1\n1\nn\n",
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    assert!(text.contains("“take 5” is not a legal move here. Your moves: 1) take 1, leave 7   2) take 2, leave 6   3) take 3, leave 5"), "{text}");
    // A single pile's label lies one way only: no "as drawn".
    assert!(text.contains("Box 3 holds:"), "{text}");
    // Each piped line is written back after its prompt, as the game went.
    assert!(
        text.contains("> take 5\n") && text.contains("> 3\n"),
        "{text}"
    );
    assert!(text.contains("The machine takes out a bead: ● "), "{text}");
    // The machine's move said as what it did, not as the pupil's instruction.
    assert!(text.contains(". The machine takes "), "{text}");
    // The rule in words, the beads with a multiplication sign, a change with an arrow.
    assert!(text.contains("punish-only rule: "), "{text}");
    assert!(text.contains(" ×1  take 1, leave 4"), "{text}");
    assert!(text.contains(": 1 → 0"), "{text}");
    assert!(!text.contains('\x1b'), "no colour into a pipe");
}

#[test]
fn colour_is_asked_for_and_no_color_is_honoured() {
    let always = play(
        &[
            "play", "--preset", "bachet", "--seed", "3", "--colour", "always",
        ],
        "3\n1\n1\n1\nn\n",
    );
    assert!(
        stdout(&always).contains("\x1b[38;2;"),
        "{}",
        stdout(&always)
    );
    let mut cmd = matchbox(&["play", "--preset", "bachet", "--seed", "3"]);
    cmd.env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"3\n1\n1\n1\nn\n")
        .unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(!out.contains('\x1b') && out.contains("● red"), "{out}");
}

#[test]
fn the_state_file_keeps_the_beads_and_a_bad_one_is_left_alone() {
    let dir = temp_dir("state");
    let state = dir.join("her.json");
    let path = state.to_str().unwrap();
    // A game of HER from a pipe, always playing the first move listed; lines left
    // over when the game ends answer "another game?" with no. The second run
    // continues from the file.
    let moves = "1\n".repeat(8);
    let moves = moves.as_str();
    let first = play(
        &[
            "play", "--preset", "hexapawn", "--seed", "1", "--state", path,
        ],
        &format!("{moves}n\n"),
    );
    assert!(
        first.status.success(),
        "{}{}",
        stdout(&first),
        stderr(&first)
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 1);
    let second = play(
        &[
            "play", "--preset", "hexapawn", "--seed", "1", "--state", path,
        ],
        &format!("{moves}n\n"),
    );
    assert!(second.status.success(), "{}", stderr(&second));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 2);

    // A damaged file is refused and not touched.
    std::fs::write(&state, "{\"format\": \"matchbox-state\", \"vers").unwrap();
    let damaged = play(&["play", "--preset", "hexapawn", "--state", path], moves);
    assert_eq!(damaged.status.code(), Some(2));
    assert!(stderr(&damaged).contains("damaged") && stderr(&damaged).contains("left as it is"));
    assert_eq!(
        std::fs::read_to_string(&state).unwrap(),
        "{\"format\": \"matchbox-state\", \"vers"
    );

    // A file of another kit is refused and not touched.
    let bachet = dir.join("bachet.json");
    let b = bachet.to_str().unwrap();
    assert!(
        play(
            &["play", "--preset", "bachet", "--seed", "2", "--state", b],
            "3\n1\n1\n1\nn\n"
        )
        .status
        .success()
    );
    let before = std::fs::read_to_string(&bachet).unwrap();
    let foreign = play(&["play", "--preset", "hexapawn", "--state", b], moves);
    assert_eq!(foreign.status.code(), Some(2));
    assert!(
        stderr(&foreign).contains("another kit"),
        "{}",
        stderr(&foreign)
    );
    assert_eq!(std::fs::read_to_string(&bachet).unwrap(), before);

    // A file changed by hand: refused with the box and colour named, and read with a
    // warning when the user says so.
    // The first count of the first box (the settings before it hold beads too).
    let boxes = before.find("\"boxes\"").unwrap();
    let edited = format!(
        "{}{}",
        &before[..boxes],
        before[boxes..].replacen("\"beads\": 1", "\"beads\": 7", 1)
    );
    std::fs::write(&bachet, &edited).unwrap();
    let args = ["play", "--preset", "bachet", "--seed", "2", "--state", b];
    let refused = play(&args, "3\n1\n1\n1\nn\n");
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("7 beads"), "{}", stderr(&refused));
    assert_eq!(std::fs::read_to_string(&bachet).unwrap(), edited);
    let accepted = play(
        &[&args[..], &["--accept-edited-state"]].concat(),
        "3\n1\n1\n1\nn\n",
    );
    assert!(accepted.status.success(), "{}", stderr(&accepted));
    assert!(
        stderr(&accepted).contains("warning"),
        "{}",
        stderr(&accepted)
    );

    // Bytes that are not text.
    std::fs::write(&bachet, [0xff, 0xfe, 0x00]).unwrap();
    let binary = play(&args, "n\n");
    assert_eq!(binary.status.code(), Some(2));
    assert!(
        stderr(&binary).contains("not UTF-8") && stderr(&binary).contains("left as it is"),
        "{}",
        stderr(&binary)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn max_games_goes_with_runs_not_games() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "simulate",
            "--preset",
            "bachet",
            "--games",
            "10",
            "--max-games",
            "5",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-games"));
}
