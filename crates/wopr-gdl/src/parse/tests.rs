use super::*;

fn msg(text: &str) -> String {
    parse(text).unwrap_err().0
}

#[test]
fn reads_facts_rules_and_comments() {
    let sheet = parse(
        "; Tic-tac-toe, a fragment\n\
         (ROLE xplayer)\n\
         (init (cell 1 1 b)) ; a comment\n\
         terminal\n\
         (<= (legal ?W (mark ?X ?Y))\n\
             (true (cell ?x ?y b))\n\
             (not (true (control ?w)))\n\
             (distinct ?x 3)\n\
             (or open (not (distinct ?y 1))))\n",
    )
    .unwrap();
    let shown: Vec<String> = sheet.rules.iter().map(|r| r.to_string()).collect();
    assert_eq!(
        shown,
        [
            "(role xplayer)",
            "(init (cell 1 1 b))",
            "terminal",
            "(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (not (true (control ?w))) \
             (distinct ?x 3) (or open (not (distinct ?y 1))))",
        ]
    );
    let lines: Vec<usize> = sheet.rules.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 3, 4, 5]);
    assert_eq!(sheet.rules[2].head.args.len(), 0);
    // Names are shared: one allocation per distinct name.
    let r = &sheet.rules[3];
    let Term::Var(w1) = &r.head.args[0] else {
        panic!()
    };
    let Literal::Not(inner) = &r.body[1] else {
        panic!()
    };
    let Literal::Pos(a) = &**inner else { panic!() };
    let Term::Fn(_, args) = &a.args[0] else {
        panic!()
    };
    let Term::Var(w2) = &args[0] else { panic!() };
    assert!(std::sync::Arc::ptr_eq(w1, w2));
}

#[test]
fn zero_ary_forms() {
    let sheet = parse("(<= (terminal) (line x))\n(<= terminal open)").unwrap();
    assert_eq!(sheet.rules[0].head, sheet.rules[1].head);
    assert_eq!(sheet.rules[1].body[0].to_string(), "open");
    // A function term with no arguments is a constant.
    let sheet = parse("(<= (next (over)) (true over))").unwrap();
    assert_eq!(sheet.rules[0].to_string(), "(<= (next over) (true over))");
    let sheet = parse("(<= done)").unwrap();
    assert!(sheet.rules[0].body.is_empty());
}

#[test]
fn windows_line_ends() {
    let sheet = parse("(role x)\r\n; note\r\n(init\r\n a)\r\n").unwrap();
    let lines: Vec<usize> = sheet.rules.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 3]);
    assert_eq!(sheet.rules[1].to_string(), "(init a)");
}

#[test]
fn one_line_errors() {
    assert_eq!(msg("(role x)\n(init a))"), "line 2: unbalanced ')'");
    assert_eq!(
        msg("(role x)\n\n(<= (p ?x)\n (q ?x)"),
        "line 4: unclosed '(' opened at line 3"
    );
    assert_eq!(
        msg("(role x)\n(<= ?x (q ?x))"),
        "line 2: a rule's head must be a relation, found variable ?x"
    );
    assert_eq!(
        msg("(role x)\n\n\n\n\n\n()"),
        "line 7: empty list () where a sentence belongs"
    );
    assert_eq!(
        msg("(<= p\n  (not q r))"),
        "line 2: (not …) takes one literal, found 2 in (not q r)"
    );
    assert_eq!(
        msg("(<= p (distinct ?x))"),
        "line 1: (distinct …) takes two terms, found 1 in (distinct ?x)"
    );
    assert_eq!(msg("(<=)"), "line 1: a rule (<= head body…) needs a head");
    assert_eq!(
        msg("?x"),
        "line 1: a sentence must be a relation, found variable ?x"
    );
    assert_eq!(msg("(p ())"), "line 1: empty list () where a term belongs");
    assert_eq!(msg("(p ?)"), "line 1: a variable needs a name after '?'");
    assert_eq!(
        msg("(<= p (?r a))"),
        "line 1: a literal must be a relation, found variable ?r"
    );
    assert_eq!(
        msg("(<= p ((q) a))"),
        "line 1: a literal must start with a name, found (q)"
    );
    assert_eq!(
        msg("(<= p (<= q r))"),
        "line 1: a literal must be a relation, found a nested rule (<= …)"
    );
    assert!(msg(&"(".repeat(10_000)).contains("nest deeper than 256"));
}

#[test]
fn errors_are_single_lines() {
    for bad in ["(p\n(q", "(<= (p\n?x) (not\na b))", ")"] {
        let m = msg(bad);
        assert!(!m.contains('\n'), "{m}");
        assert!(m.starts_with("line "), "{m}");
    }
}

/// Every prefix of a real sheet, and some byte-level garbage made from
/// it, must give a sheet or an error, never a panic.
#[test]
fn never_panics() {
    let text = "; héllo\n(role xplayer) (role oplayer)\n\
                (<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))\n\
                (<= (legal ?w noop) (not (true (control ?w))) (or (p ?w) (not (distinct ?w a))))\n\
                (<= terminal (not open))\n";
    for (end, _) in text.char_indices() {
        let _ = parse(&text[..end]);
        let _ = parse(&text[end..]);
    }
    // A small xorshift generator makes reproducible garbage.
    let alphabet: Vec<char> = "()?;<= \n\tabxyz19é(".chars().collect();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for len in 0..400 {
        let s: String = (0..len % 60)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect();
        if let Err(e) = parse(&s) {
            assert!(
                e.0.starts_with("line ") && !e.0.contains('\n'),
                "{s:?}: {e}"
            );
        }
    }
}

/// A sheet with its lines ended by `end`, a comment on each line, an
/// error on line 4 where `bad`.
fn sheet_ended(end: &str, bad: bool) -> String {
    [
        "; a comment to the end of the line",
        "(role x) ; the only player",
        "(init (cell 1))",
        if bad {
            "(init a))"
        } else {
            "(<= (legal x go) (true (cell 1)))"
        },
        "; the last line",
    ]
    .join(end)
}

#[test]
fn lf_crlf_and_bare_cr_line_ends_read_alike() {
    let want: Vec<(usize, String)> = parse(&sheet_ended("\n", false))
        .unwrap()
        .rules
        .iter()
        .map(|r| (r.line, r.to_string()))
        .collect();
    assert_eq!(want.len(), 3);
    assert_eq!(want[2].0, 4);
    for end in ["\r\n", "\r", "\n\r\n", "\r\r"] {
        let got: Vec<(usize, String)> = parse(&sheet_ended(end, false))
            .unwrap()
            .rules
            .iter()
            .map(|r| (r.line, r.to_string()))
            .collect();
        // "\n\r\n" and "\r\r" end two lines each time.
        let per = if end.len() == 3 || end == "\r\r" {
            2
        } else {
            1
        };
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        let expect: Vec<usize> = want.iter().map(|w| (w.0 - 1) * per + 1).collect();
        assert_eq!(lines, expect, "{end:?}");
        let text: Vec<&String> = got.iter().map(|g| &g.1).collect();
        assert_eq!(
            text,
            want.iter().map(|w| &w.1).collect::<Vec<_>>(),
            "{end:?}"
        );
        // Errors name the right line whatever the line ends.
        let e = parse(&sheet_ended(end, true)).unwrap_err().0;
        assert_eq!(
            e,
            format!("line {}: unbalanced ')'", 3 * per + 1),
            "{end:?}"
        );
    }
    // A bare CR ends a comment: the rule after it is read.
    let sheet = parse("; old Mac file\r(role x)\r(init a) ; note\r(<= terminal (true a))").unwrap();
    assert_eq!(sheet.rules.len(), 3);
    assert_eq!(sheet.rules[2].line, 4);
    assert_eq!(
        msg("(role x)\r\r(p"),
        "line 3: unclosed '(' opened at line 3"
    );
    assert_eq!(
        msg("(role x)\r\n(p\r\n"),
        "line 2: unclosed '(' opened at line 2"
    );
}

#[test]
fn a_byte_order_mark_is_white_space() {
    let plain = parse("(role x)\n(init a)").unwrap();
    let marked = parse("\u{feff}(role x)\n(init\u{feff}a)").unwrap();
    assert_eq!(plain, marked);
}

#[test]
fn names_must_be_utf8_and_comments_may_hold_any_bytes() {
    let b = |bytes: &[u8]| parse_within(bytes, Budget::from_bytes(u64::MAX));
    let sheet = b(b"; caf\xe9 in Mac Roman\r(role x)").unwrap().sheet;
    assert_eq!(sheet.rules[0].to_string(), "(role x)");
    let e = b(b"(role x)\n(init caf\xe9)").unwrap_err().0;
    assert!(e.starts_with("line 2: byte 0xe9 is not UTF-8"), "{e}");
    assert!(b("(role caf\u{e9})".as_bytes()).is_ok());
}

#[test]
fn a_sentence_written_twice_is_kept_once() {
    let sheet = parse("(role x)\n(init a)\n(role x)\n(INIT A)\n(init b)").unwrap();
    let shown: Vec<String> = sheet.rules.iter().map(|r| r.to_string()).collect();
    assert_eq!(shown, ["(role x)", "(init a)", "(init b)"]);
    assert_eq!(sheet.rules[2].line, 5);
}

#[test]
fn reading_stops_at_the_budget_before_passing_it() {
    // Distinct facts, so that nothing is shared.
    let text: String = (0..20_000).map(|i| format!("(f {i})\n")).collect();
    let whole = parse_within(text.as_bytes(), Budget::from_bytes(u64::MAX)).unwrap();
    let need = whole.bytes + text.len() as u64;
    // The estimate is at least what the rules hold as allocated.
    let floor = (whole.sheet.rules.len() * std::mem::size_of::<Rule>()) as u64;
    assert!(whole.bytes > floor, "{} <= {floor}", whole.bytes);
    // While the vector of rules moves it is held twice: twice what is
    // held at the end is room enough.
    assert!(parse_within(text.as_bytes(), Budget::from_bytes(2 * need)).is_ok());
    let e = parse_within(text.as_bytes(), Budget::from_bytes(need / 2))
        .unwrap_err()
        .0;
    assert!(e.starts_with("line "), "{e}");
    for says in [
        "reading the sheet exceeds the memory budget of",
        "memory=",
        "WOPR_GDL_MEMORY=",
    ] {
        assert!(e.contains(says), "'{e}' lacks '{says}'");
    }
    assert!(!e.contains('\n'), "{e}");
    // A text larger than the budget is refused at once.
    let e = parse_within(text.as_bytes(), Budget::from_bytes(1024))
        .unwrap_err()
        .0;
    assert!(e.starts_with("line 1: reading the sheet exceeds"), "{e}");
    // One fact repeated costs what one fact costs.
    let repeated = "(cell 1 2 b)\n".repeat(20_000);
    let once = parse_within(repeated.as_bytes(), Budget::from_bytes(u64::MAX)).unwrap();
    assert_eq!(once.sheet.rules.len(), 1);
    assert!(once.bytes < 4096, "{}", once.bytes);
}

/// `(or)` is a disjunction of nothing: false, as SWI-Prolog runs it (the
/// sheet `testgames/emptyDisjunction.kif` of AlexLandau/gdl-validation
/// has one). Here `stop` is legal only where `(or)` holds: never, so the
/// initial state has one move, `go`.
#[test]
fn an_empty_or_never_holds() {
    let rule = &parse("(<= p (or))").unwrap().rules[0];
    assert_eq!(rule.to_string(), "(<= p (distinct or or))");
    let sheet = "(role a) (init (s 0))
        (<= (legal a go) (true (s 0)))
        (<= (legal a stop) (true (s 0)) (or))
        (<= (next (s 1)) (does a go))
        (<= terminal (true (s 1)))
        (<= (goal a 100) (true (s 1)))
        (<= (goal a 0) (true (s 0)))";
    let g = super::super::game::Gdl::from_text("empty-or.kif", sheet, 100).unwrap();
    let r = g.reasoner();
    assert_eq!(super::super::steps::step_perft(r, &r.initial(), 1), 1);
}
