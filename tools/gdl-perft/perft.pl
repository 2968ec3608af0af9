% Perft in GDL steps for a sheet translated by `wopr gdl prolog`:
%   wopr gdl prolog SHEET.kif > sheet.pl
%   swipl -g 'wopr_perft(3)' -t halt sheet.pl tools/gdl-perft/perft.pl
% prints `D N` for D = 1..3: the number of joint-move sequences of D steps
% from the initial state (every role moves at every step, forced moves and
% GDL-II's random included; a terminal state, or one where a role has no
% legal move, is not extended). Legal moves, roles and next states are
% read as sets (findall, then sort). Counts are memoised per state.

:- dynamic 'g_role'/1, 'g_init'/1, 'g_legal'/2, 'g_next'/1, 'g_terminal'/0.
:- dynamic wopr_memo/4, wopr_kids/3, wopr_info/3.

wopr_set_state(S) :-
    retractall(t(_)), retractall(d(_, _)),
    forall(member(X, S), assertz(t(X))).

wopr_joint([], []).
wopr_joint([L|Ls], [M|Ms]) :- member(M, L), wopr_joint(Ls, Ms).

wopr_does([], []).
wopr_does([R|Rs], [M|Ms]) :- assertz(d(R, M)), wopr_does(Rs, Ms).

wopr_next_of(Rs, J, C) :-
    retractall(d(_, _)), wopr_does(Rs, J),
    findall(X, 'g_next'(X), C0), sort(C0, C),
    retractall(d(_, _)).

% wopr_moves(S, K): K is `end`, or moves(N, Roles, LegalLists) with N the
% number of joint moves (not listed: depth 1 needs only the product).
wopr_moves(S, K) :-
    wopr_set_state(S),
    (   'g_terminal'
    ->  K = end
    ;   findall(R, 'g_role'(R), Rs0), sort(Rs0, Rs),
        findall(L, (member(R, Rs), findall(M, 'g_legal'(R, M), L0), sort(L0, L)), Ls),
        (   member([], Ls)
        ->  K = end
        ;   foldl([L, A0, A]>>(length(L, X), A is A0 * X), Ls, 1, N),
            K = moves(N, Rs, Ls)
        )
    ).

wopr_moves_of(S, K) :- term_hash(S, H), wopr_info(H, S, K0), !, K = K0.
wopr_moves_of(S, K) :- wopr_moves(S, K), term_hash(S, H), assertz(wopr_info(H, S, K)).

% wopr_kids_of(S, Rs, Ls, Cs): the next state of every joint move.
wopr_kids_of(S, _, _, Cs) :- term_hash(S, H), wopr_kids(H, S, Cs0), !, Cs = Cs0.
wopr_kids_of(S, Rs, Ls, Cs) :-
    wopr_set_state(S),
    findall(C, (wopr_joint(Ls, J), wopr_next_of(Rs, J, C)), Cs),
    term_hash(S, H), assertz(wopr_kids(H, S, Cs)).

wopr_count(_, 0, 1) :- !.
wopr_count(S, D, N) :- term_hash(S, H), wopr_memo(H, S, D, N0), !, N = N0.
wopr_count(S, D, N) :-
    wopr_moves_of(S, K),
    (   K = end
    ->  N = 0
    ;   K = moves(J, Rs, Ls),
        (   D =:= 1
        ->  N = J
        ;   wopr_kids_of(S, Rs, Ls, Cs),
            D1 is D - 1, foldl(wopr_add(D1), Cs, 0, N)
        )
    ),
    term_hash(S, H), assertz(wopr_memo(H, S, D, N)).

wopr_add(D, C, A0, A) :- wopr_count(C, D, N), A is A0 + N.

wopr_perft(Max) :-
    findall(X, 'g_init'(X), S0), sort(S0, S),
    forall(between(1, Max, D),
           ( wopr_count(S, D, N), format("~w ~w~n", [D, N]), flush_output )).
