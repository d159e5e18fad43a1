//! The four functions the page calls: it asks for a request buffer of the size it
//! needs, writes its JSON request there, calls, and reads the answer's buffer. One
//! request at a time (a page's worker is one thread), so both buffers are kept here
//! rather than handed back and forth.

use std::cell::RefCell;

thread_local! {
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the next request; its address in the module's memory.
#[unsafe(no_mangle)]
pub extern "C" fn matchbox_request(len: usize) -> *mut u8 {
    REQUEST.with_borrow_mut(|request| {
        request.clear();
        request.resize(len, 0);
        request.as_mut_ptr()
    })
}

/// Answers the request in the buffer: 0 when done, else the CLI's exit status for the
/// error (2 for a mistake in the kit, 1 for the program's). The answer is framed parts
/// (see [`crate::frame`]); an error's are `error`, the message as the command line says
/// it, and `problem`, the same as JSON with its place and key ([`crate::problem`]).
#[unsafe(no_mangle)]
pub extern "C" fn matchbox_call() -> i32 {
    let request = REQUEST.with_borrow_mut(std::mem::take);
    let (status, parts) = match crate::answer(&request) {
        Ok(parts) => (0, parts),
        Err(e) => {
            let yaml = crate::request_yaml(&request);
            let problem = crate::problem::error_json(&e, yaml.as_deref());
            (
                e.exit_code(),
                vec![
                    ("error".into(), e.to_string().into_bytes()),
                    ("problem".into(), problem.to_string().into_bytes()),
                ],
            )
        }
    };
    ANSWER.with_borrow_mut(|answer| *answer = crate::frame(&parts));
    status
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn matchbox_answer() -> *const u8 {
    ANSWER.with_borrow(|answer| answer.as_ptr())
}

/// How long the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn matchbox_answer_len() -> usize {
    ANSWER.with_borrow(Vec::len)
}
