#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| wopr_fuzz::check_ggp_message(data));
