//! What Unix (Linux, macOS) and Windows do differently for the server: how many files
//! it may hold open, and which signal, besides Ctrl-C, asks it to stop.

#[cfg(unix)]
mod imp {
    /// The file descriptors the process may open (`ulimit -n`), or 1,024 if the system
    /// does not say.
    pub fn open_files() -> usize {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given, which lives across the call.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) } == 0;
        if read {
            usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
        } else {
            1024
        }
    }

    /// Resolves at SIGTERM (a service manager's stop); never if it cannot be watched.
    pub async fn terminated() {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminated) => {
                terminated.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    }
}

#[cfg(windows)]
mod imp {
    /// No limit of its own: Windows caps a process's sockets by its memory, not by a
    /// count of descriptors, so only the server's own cap applies.
    pub fn open_files() -> usize {
        usize::MAX
    }

    /// Resolves when the console window is closed or Windows shuts down (Ctrl-C is
    /// watched by the caller); never if neither can be watched.
    pub async fn terminated() {
        use tokio::signal::windows::{ctrl_close, ctrl_shutdown};
        match (ctrl_close(), ctrl_shutdown()) {
            (Ok(mut closed), Ok(mut shut_down)) => tokio::select! {
                _ = closed.recv() => {}
                _ = shut_down.recv() => {}
            },
            _ => std::future::pending().await,
        }
    }
}

pub(crate) use imp::{open_files, terminated};
