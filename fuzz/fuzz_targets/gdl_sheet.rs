#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| wopr_fuzz::check_gdl_sheet(data));
