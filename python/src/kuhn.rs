//! Kuhn poker's information states and observations in OpenSpiel's
//! layout (`kuhn_poker`), so that OpenSpiel's tabular algorithms (CFR,
//! best responses, exploitability) key their tables as they do on
//! pyspiel's game. Cards are 0 = J, 1 = Q, 2 = K; a pass is `p`, a bet `b`.

use wopr::games::kuhn::{Card, KuhnState, BET};

/// The information-state string of `player`: its card's number and the
/// betting (`2pb`), empty before its card is dealt.
pub fn information_state_string(s: &KuhnState, player: usize) -> String {
    let Some(Card(c)) = s.card(player) else {
        return String::new();
    };
    let mut out = c.to_string();
    for a in s.betting().actions() {
        out.push(if a == BET { 'b' } else { 'p' });
    }
    out
}

/// The information-state tensor of `player` (11 values): the player
/// one-hot (2), its card one-hot (3), then for each of the three betting
/// turns a pass bit and a bet bit (6).
pub fn information_state_tensor(s: &KuhnState, player: usize) -> Vec<f32> {
    let mut out = vec![0.0; 11];
    out[player] = 1.0;
    if let Some(Card(c)) = s.card(player) {
        out[2 + c as usize] = 1.0;
    }
    for (i, a) in s.betting().actions().enumerate() {
        out[5 + 2 * i + usize::from(a == BET)] = 1.0;
    }
    out
}

/// The observation string of `player`: its card's number and the chips
/// each seat has put in (`221`), empty before its card is dealt.
pub fn observation_string(s: &KuhnState, player: usize) -> String {
    let Some(Card(c)) = s.card(player) else {
        return String::new();
    };
    // The observation tensor's last two values are the stakes.
    let t = s.observation_tensor(player);
    format!("{c}{}{}", t[5] as u32, t[6] as u32)
}
