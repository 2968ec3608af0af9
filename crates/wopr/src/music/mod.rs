//! The musicator (MIDI-Connect4): placeholder, being written (issue 6).
