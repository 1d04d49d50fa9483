//! `ir-check MODEL.xml [--weights MODEL.bin] [--shape NAME=DIMS]... [--format text|json] [-q] [--timings]`,
//! or `ir-check --completions bash|zsh|fish`

// On Linux the C runtime calls our `main` directly, without Rust's start-up
// (see `main` below); the unit tests keep the test harness's.
#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

use std::io::{BufWriter, Write};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Parser;

// In the static musl build, musl's memcpy, memmove, memset, memcmp and bcmp
// are replaced by this crate's (which exports them under the C names), fast
// on the short copies a check makes (docs/performance.md).
#[cfg(all(target_env = "musl", target_arch = "x86_64"))]
use musl_mem as _;

// Loading a model is millions of small allocations (tag names, attributes,
// dims, report strings): mimalloc serves them several times faster than
// glibc's malloc (docs/performance.md).
#[global_allocator]
static ALLOCATOR: ir_check::allocator::Mimalloc = ir_check::allocator::Mimalloc;

/// mimalloc's `mi_option_purge_delay`, which libmimalloc-sys does not export
/// (it keeps some options unnamed "for stability"): the option just before
/// `mi_option_use_numa_nodes` (a test checks it and its default).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long mimalloc keeps freed memory before giving it back (its own
/// default is 1000 ms).
const PURGE_DELAY_MS: std::ffi::c_long = 10;

/// mimalloc's `mi_option_arena_reserve` (unnamed in libmimalloc-sys too):
/// three after `mi_option_max_warnings` (a test checks it and that the
/// constructor below set it).
const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// The address space mimalloc reserves for its first arena, in KiB (its
/// default is 1 GiB). An arena's bitmaps grow with its size, and setting
/// them up touched a page each: `--version` took 218 page faults, 193 with
/// this (at about 2 µs a fault on this VM). Larger models get more arenas,
/// each twice as large as the last after every eighth.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 * 1024;

/// Sets the size of the arenas mimalloc reserves itself (after the first,
/// which `main` maps: `map_first_arena`) before any allocation, in the
/// shipped binary and in a build with Rust's start-up (the tests), which
/// allocates before `main`: run by the C runtime among the program's
/// constructors (`.init_array`, as C's `__attribute__((constructor))`).
/// Linux only (an ELF section): elsewhere the arenas keep mimalloc's default
/// size.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static CONFIGURE_ALLOCATOR: extern "C" fn() = configure_allocator;

#[cfg(target_os = "linux")]
extern "C" fn configure_allocator() {
    // SAFETY: setting an option is a plain store in mimalloc, valid at any
    // time; it applies to the arenas reserved from then on.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB) };
}

/// The part of the first arena (offsets in bytes) backed by transparent huge
/// pages in every process that checks a model. A process touches its first heap
/// pages one 4 KiB page fault at a time, about 1.45 µs each on this VM
/// (populating them in one `madvise` costs as much a page); a 2 MiB huge page
/// costs one fault of 100-120 µs (most of it zeroing), so it pays where some 75
/// of its 512 small pages would be touched. With mimalloc 3 (libmimalloc-sys
/// 0.1.49), a small model's heap is one page per size class from the arena's
/// start (32 KiB in the shipped binary, 64 KiB by default), 1-2 small pages of
/// each touched: 30-170 faults in the first 2 MiB, and 0-65 in the next two,
/// which keep small pages unless the model is larger (`huge_pages_for`).
/// `--version` and `--help` touch fewer, and get none (`names_a_model`). The
/// shipped binary's mimalloc has no 4 MiB "large" pages
/// (`MI_ENABLE_LARGE_PAGES=0`, .cargo/config.toml): with them, one block of
/// 84-512 KiB took a whole 4 MiB-aligned page and pushed every later page past
/// 4 MiB, where a 1,000-layer model made two more huge pages
/// (docs/performance.md, "Outside the timings").
#[cfg(target_os = "linux")]
const FIRST_HUGE_PAGES: std::ops::Range<usize> = 0..2 << 20;

/// The size of a transparent huge page on x86-64, the alignment the arena
/// needs for its start to be backed by one.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

#[cfg(all(target_os = "linux", not(test)))]
extern "C" {
    /// mimalloc's `mi_manage_os_memory` (libmimalloc-sys exports it only
    /// with its `arena` feature): memory the program mapped, used as an arena.
    fn mi_manage_os_memory(
        start: *mut std::ffi::c_void,
        size: usize,
        is_committed: bool,
        is_pinned: bool,
        is_zero: bool,
        numa_node: std::ffi::c_int,
    ) -> bool;
}

/// Maps the first arena (`ARENA_RESERVE_KIB`, at a huge page's alignment)
/// and hands it to mimalloc, which then takes its memory from there. Called
/// by `main` before the first allocation (nothing allocates before it: the
/// C runtime calls it directly), so that the huge page of
/// `FIRST_HUGE_PAGES` is asked for, or not (`with_huge_page`), before
/// mimalloc writes its header at the arena's start: once a 4 KiB page of a
/// 2 MiB range is mapped, the range gets no huge page any more. mimalloc's
/// own arenas are built without the request (the `no_thp` feature,
/// Cargo.toml), and on a system where THP is off (`never`) the request does
/// nothing. If any step fails, mimalloc reserves its first arena itself, as
/// before.
#[cfg(all(target_os = "linux", not(test)))]
fn map_first_arena(with_huge_page: bool) {
    let size = ARENA_RESERVE_KIB as usize * 1024;
    let mapped_size = size + HUGE_PAGE;
    // SAFETY: a fresh anonymous private mapping, no existing memory involved.
    let mapped = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            mapped_size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if mapped == libc::MAP_FAILED {
        return;
    }
    let skipped = (HUGE_PAGE - mapped as usize % HUGE_PAGE) % HUGE_PAGE;
    let start = mapped.cast::<u8>().wrapping_add(skipped);
    // SAFETY: every range lies in the mapping made above, untouched; the
    // arena keeps `start..start + size`, the rest is unmapped. An advice
    // the kernel refuses changes nothing.
    unsafe {
        if skipped > 0 {
            libc::munmap(mapped, skipped);
        }
        libc::munmap(start.add(size).cast(), HUGE_PAGE - skipped);
        if with_huge_page {
            libc::madvise(
                start.add(FIRST_HUGE_PAGES.start).cast(),
                FIRST_HUGE_PAGES.len(),
                libc::MADV_HUGEPAGE,
            );
        }
        // Committed (readable and writable) and zero (fresh), not pinned:
        // mimalloc may give its pages back to the system.
        if mi_manage_os_memory(start.cast(), size, true, false, true, -1) {
            FIRST_ARENA.store(start as usize, Ordering::Relaxed);
        } else {
            libc::munmap(start.cast(), size);
        }
    }
}

/// Where the first arena starts, once `map_first_arena` has handed it to
/// mimalloc (0 before, or if it could not).
#[cfg(target_os = "linux")]
static FIRST_ARENA: AtomicUsize = AtomicUsize::new(0);

/// Whether the arguments (the program's name left out) name a model: one of
/// them is not a flag. A `--version` or `--help` touches a few dozen small
/// pages of the heap, less than zeroing a huge page costs.
#[cfg_attr(any(not(target_os = "linux"), test), allow(dead_code))]
fn names_a_model<'a>(mut arguments: impl Iterator<Item = &'a [u8]>) -> bool {
    arguments.any(|argument| argument.first().is_some_and(|&byte| byte != b'-'))
}

/// The sizes of a model's XML for which the whole first arena gets huge
/// pages. Past its first 8 MiB every page of the heap was a 4 KiB page
/// fault (about 1.2 µs each here, a huge page's 30-90 µs): relu_10000 (3 MB
/// of XML, a peak of 16 MiB) took 2,450 of them, wide_10000 and
/// slice_10000 5,000-5,300. From 1 MiB: a 1,000-layer model's XML is 0.3-0.6
/// MB and its heap fits in the first 4-6 MiB. Up to 16 MiB: with huge pages
/// the peak of relu_100000 (30 MB of XML) went from a steady 89.8 MiB to
/// 91-98 MiB, too close to issue 18's 100 MB, and the million-layer chain
/// spent as much time as before zeroing them (docs/performance.md, "Page
/// faults of large models").
#[cfg(target_os = "linux")]
const HUGE_PAGE_XML_BYTES: std::ops::Range<u64> = 1 << 20..16 << 20;

/// The sizes of a model's XML for which the first arena's second huge page
/// (2-4 MiB) is made a huge page too. With the shipped binary's 32 KiB
/// slices, wide_1000 (422 KB of XML) touches 97 of its small pages and
/// slice_1000 (591 KB) 134; relu_1000 (293 KB) 21, llama_int4 (203 KB) 23,
/// the narrow Swin (361 KB) 64, too few to pay for one. (add_1000, 405 KB,
/// 40: it keeps the huge page it had.)
#[cfg(target_os = "linux")]
const SECOND_HUGE_PAGE_XML_BYTES: std::ops::Range<u64> = 384 << 10..HUGE_PAGE_XML_BYTES.start;

/// The part of the first arena that gets huge pages, beyond
/// `FIRST_HUGE_PAGES`, for a model whose XML has `xml_bytes` bytes. From
/// `HUGE_PAGE_XML_BYTES.end` on 4-8 MiB, which every process had before:
/// without it the 100,000-layer chain took 500-1,000 more faults.
#[cfg(target_os = "linux")]
fn huge_pages_for(xml_bytes: u64) -> Option<std::ops::Range<usize>> {
    if SECOND_HUGE_PAGE_XML_BYTES.contains(&xml_bytes) {
        Some(FIRST_HUGE_PAGES.end..FIRST_HUGE_PAGES.end + HUGE_PAGE)
    } else if HUGE_PAGE_XML_BYTES.contains(&xml_bytes) {
        Some(0..ARENA_RESERVE_KIB as usize * 1024)
    } else if xml_bytes >= HUGE_PAGE_XML_BYTES.end {
        Some(2 * HUGE_PAGE..4 * HUGE_PAGE)
    } else {
        None
    }
}

/// Huge pages on the part of the first arena `huge_pages_for` gives for the
/// model's XML, asked before its check starts. Other models cost one `stat`
/// here.
#[cfg(target_os = "linux")]
fn prepare_heap_for(model: &std::path::Path) {
    let Ok(metadata) = std::fs::metadata(model) else {
        return;
    };
    let first = FIRST_ARENA.load(Ordering::Relaxed);
    if !metadata.is_file() || first == 0 {
        return;
    }
    if let Some(range) = huge_pages_for(metadata.len()) {
        // SAFETY: a range of the first arena's mapping, made by
        // `map_first_arena`; asking for huge pages on memory in use changes no
        // byte of it, and an advice the kernel refuses changes nothing.
        unsafe {
            libc::madvise(
                (first + range.start) as *mut std::ffi::c_void,
                range.len(),
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

/// The process's entry, called by the C runtime. Rust's own start-up
/// (`std::rt`), skipped here, would set up what this process does not need:
/// a guard page and signal handlers to name a stack overflow (reading
/// `/proc/self/maps` to find the main thread's stack), the main thread's
/// name, a check that the standard descriptors are open: about 15 system
/// calls and a few page faults, about 0.05 ms of a 1 ms check
/// (docs/performance.md).
/// What of it matters is done here: SIGPIPE ignored (a closed pipe is a
/// write error, which is ignored, not the end of the process), and a panic
/// ends the process with status 101 after its message, as from Rust's
/// `main`: the panic hook prints the message and ends the process, in the
/// shipped binary, which is built with `panic = "abort"` (no unwinding,
/// `.cargo/config.toml`), as in any other build. The arguments are taken
/// from `argv`: `std::env::args` is empty here in a musl build (glibc hands
/// them to Rust's standard library before `main`, musl does not).
#[cfg(all(target_os = "linux", not(test)))]
#[no_mangle]
extern "C" fn main(argc: std::ffi::c_int, argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    // SAFETY: setting a signal's disposition to "ignore" before any other
    // thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    use std::os::unix::ffi::OsStrExt;
    let count = usize::try_from(argc).unwrap_or(0);
    // SAFETY: the C runtime passes `argc` pointers to NUL-terminated
    // strings in `argv`, valid for the whole process.
    let argument = |index: usize| unsafe { std::ffi::CStr::from_ptr(*argv.add(index)) };
    map_first_arena(names_a_model(
        (1..count).map(|index| argument(index).to_bytes()),
    ));
    let print_message = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        print_message(info);
        // SAFETY: `_exit` ends the process at once, from whichever thread
        // panicked. Not `exit_now`: its flush of stdout would wait for the
        // lock the main thread holds while a worker thread panics.
        unsafe { libc::_exit(101) }
    }));
    let arguments = (0..count)
        .map(|index| std::ffi::OsStr::from_bytes(argument(index).to_bytes()).to_owned())
        .collect();
    check_and_exit(arguments)
}

#[cfg(any(not(target_os = "linux"), test))]
fn main() {
    check_and_exit(std::env::args_os().collect())
}

/// Parses the arguments (the program's name first), checks the model,
/// prints the outcome and ends the process.
fn check_and_exit(arguments: Vec<std::ffi::OsString>) -> ! {
    // Freed memory is given back to the system after 10 ms, not a second: the
    // reader's and the graph's vectors grow by copying, and their old buffers
    // would otherwise count in the peak (96 instead of 120 MiB on a
    // 100,000-layer chain). Not at once: purging every free cost a
    // 1,000,000-layer chain 4 s of system time.
    // SAFETY: setting an option is a plain store in mimalloc, valid at any time.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    // The usual form without clap's machinery, anything else through clap.
    let common = ir_check::Args::parse_common(arguments.iter().skip(1).cloned());
    let args = match common.map_or_else(|| ir_check::Args::try_parse_from(arguments), Ok) {
        Ok(args) => args,
        // `--help`, `--version` or a usage error: clap's text and status.
        Err(error) => {
            let _ = error.print();
            exit_now(error.exit_code());
        }
    };
    // Counted in the run's time: the `stat` and the advice are part of it.
    let started = Instant::now();
    #[cfg(target_os = "linux")]
    if let Some(model) = &args.model {
        prepare_heap_for(model);
    }
    // The report is written as it is produced, through one buffer.
    let mut stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let outcome = ir_check::run_streaming_then_exit(&args, &mut stdout);
    let writing = Instant::now();
    // A closed pipe is not worth a panic: ignore write errors.
    let _ = stdout.write_all(outcome.stdout.as_bytes());
    let _ = stdout.flush();
    drop(stdout);
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    if args.timings {
        let line = outcome.timings.line(writing.elapsed(), started.elapsed());
        let _ = std::io::stderr().write_all(line.as_bytes());
    }
    exit_now(i32::from(outcome.status))
}

/// Ends the process with `status` once everything is written, without the C
/// runtime's exit handlers: mimalloc's collects every heap and gives its
/// arenas' pages back (`madvise`), work the end of the process does anyway
/// (about a twentieth of a small model's run, docs/performance.md).
fn exit_now(status: i32) -> ! {
    // The instrumented build of scripts/pgo_release_ir_check.sh writes its
    // profile here: `_exit` skips the exit handler that would.
    #[cfg(ir_check_pgo)]
    {
        extern "C" {
            /// LLVM's profiling runtime (`-C profile-generate`).
            fn __llvm_profile_write_file() -> std::ffi::c_int;
        }
        // SAFETY: a plain call into the profiling runtime linked into
        // this build; a failure only loses the profile.
        unsafe { __llvm_profile_write_file() };
    }
    // Whatever sits in stdout's own line buffer goes out first (stderr has
    // none).
    let _ = std::io::stdout().flush();
    // SAFETY: `_exit` ends the process at once; nothing is left to write
    // (the report's buffer was flushed, stdout just now), and the only other
    // threads, `--run`'s pool, hold nothing that must outlive it.
    unsafe { libc::_exit(status) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_option_is_the_one_before_use_numa_nodes() {
        assert_eq!(
            libmimalloc_sys::mi_option_use_numa_nodes - 1,
            super::MI_OPTION_PURGE_DELAY
        );
        // mimalloc 3's default, 1000 ms (unless the environment sets it).
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            // SAFETY: reading an option is a plain load in mimalloc.
            let delay = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
            assert_eq!(delay, 1000);
        }
    }

    /// `--version` and `--help` get no huge page; a run that names a
    /// model does.
    #[test]
    fn only_arguments_that_name_a_model_ask_for_the_huge_page() {
        assert!(!super::names_a_model([b"--version".as_slice()].into_iter()));
        assert!(super::names_a_model(
            [b"--format".as_slice(), b"json", b"m.xml"].into_iter()
        ));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn huge_pages_by_the_size_of_the_xml() {
        use super::huge_pages_for;
        // bert: the first 2 MiB only.
        assert_eq!(huge_pages_for(80_413), None);
        // relu_1000: the first 2 MiB only; wide_1000 and slice_1000: also
        // 2-4 MiB.
        assert_eq!(huge_pages_for(293_064), None);
        assert_eq!(huge_pages_for(422_032), Some(2 << 20..4 << 20));
        assert_eq!(huge_pages_for(591_203), Some(2 << 20..4 << 20));
        // relu_10000: the whole first arena; relu_100000: 4-8 MiB.
        assert_eq!(huge_pages_for(2_966_070), Some(0..64 << 20));
        assert_eq!(huge_pages_for(30_056_076), Some(4 << 20..8 << 20));
        // A missing file or a directory changes nothing.
        super::prepare_heap_for(std::path::Path::new("/nonexistent/model.xml"));
        super::prepare_heap_for(&std::env::temp_dir());
    }

    #[test]
    fn the_arena_reserve_option_is_three_after_max_warnings() {
        assert_eq!(
            libmimalloc_sys::mi_option_max_warnings + 3,
            super::MI_OPTION_ARENA_RESERVE
        );
        // The constructor ran before the tests, as before the binary's main.
        // SAFETY: reading an option is a plain load in mimalloc.
        let reserve = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_ARENA_RESERVE) };
        if cfg!(target_os = "linux") {
            assert_eq!(reserve, super::ARENA_RESERVE_KIB);
        }
    }
}
