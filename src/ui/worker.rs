//! A thread that holds a front's state (the world, the lab) while work
//! runs on it, so that work longer than a frame (a planner building its
//! navigation mesh or HPA* abstraction on a large map, a seek over a
//! million ticks, a search of a 2048x2048 map) never holds the terminal
//! loop: the loop goes on reading keys and signals and drawing, and can
//! leave at once.
//!
//! The state goes to the thread with a job and comes back when the job is
//! done; while it is away nothing else can touch it, so the work is
//! exactly what it would be on the loop's own thread (the world stays a
//! pure function of its seed and commands, and does not advance while a
//! tick builds what it needs). A job cannot be stopped once started: a
//! loop that must leave abandons it ([`into_state`](Worker::into_state)
//! gives `None`), and the thread finishes it and ends.

use super::tty::Waker;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

/// Work to do on the state, on the worker's thread.
pub type Job<T> = Box<dyn FnOnce(&mut T) + Send>;

/// A state and the thread its jobs run on.
pub struct Worker<T> {
    /// The state, when it is home (boxed: it crosses threads twice a job,
    /// and a world is kilobytes).
    state: Option<Box<T>>,
    jobs: Sender<(Box<T>, Job<T>)>,
    done: Receiver<Box<T>>,
    /// When the job under way (or the state's making) began.
    since: Option<Instant>,
}

impl<T: Send + 'static> Worker<T> {
    /// A worker whose state `make` makes on the worker's thread (a lab's
    /// first searches take as long as any later ones); `waker`, when given,
    /// is woken after every job.
    pub fn new(make: impl FnOnce() -> T + Send + 'static, waker: Option<Waker>) -> Worker<T> {
        let (jobs, inbox) = mpsc::channel::<(Box<T>, Job<T>)>();
        let (outbox, done) = mpsc::channel();
        let wake = move || {
            if let Some(w) = &waker {
                w.wake();
            }
        };
        thread::Builder::new()
            .name("delve-worker".into())
            .spawn(move || {
                if outbox.send(Box::new(make())).is_err() {
                    return;
                }
                wake();
                for (mut state, job) in inbox {
                    job(&mut state);
                    if outbox.send(state).is_err() {
                        return;
                    }
                    wake();
                }
            })
            .expect("the worker thread starts");
        Worker { state: None, jobs, done, since: Some(Instant::now()) }
    }

    /// The state, if it is home (taking it back if a job has just finished).
    pub fn get(&mut self) -> Option<&mut T> {
        self.collect();
        self.state.as_deref_mut()
    }

    /// The state if it is home, without looking for a finished job.
    pub fn home(&self) -> Option<&T> {
        self.state.as_deref()
    }

    /// How long the state has been away, if it is.
    pub fn away(&self) -> Option<Duration> {
        self.since.map(|t| t.elapsed())
    }

    /// Sends the state off with `job`; false (and `job` dropped) when the
    /// state is not home.
    pub fn start(&mut self, job: impl FnOnce(&mut T) + Send + 'static) -> bool {
        self.collect();
        let Some(state) = self.state.take() else { return false };
        // The thread lives as long as the jobs channel: it cannot be gone.
        self.jobs.send((state, Box::new(job))).expect("the worker thread waits for jobs");
        self.since = Some(Instant::now());
        true
    }

    /// Waits up to `timeout` for the state to come home; whether it is.
    /// (The loop waits on its own wakes instead.)
    #[cfg(test)]
    pub fn wait(&mut self, timeout: Duration) -> bool {
        if self.state.is_none() {
            match self.done.recv_timeout(timeout) {
                Ok(state) => self.arrive(state),
                Err(_) => return false,
            }
        }
        true
    }

    /// The state, once home: `None` if it is still away (the job under way
    /// is abandoned).
    pub fn into_state(mut self) -> Option<T> {
        self.collect();
        self.state.take().map(|state| *state)
    }

    /// Takes the state back if a job has finished.
    fn collect(&mut self) {
        if self.state.is_none() {
            match self.done.try_recv() {
                Ok(state) => self.arrive(state),
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => panic!("the worker thread ended with a job"),
            }
        }
    }

    fn arrive(&mut self, state: Box<T>) {
        self.state = Some(state);
        self.since = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_in_order_on_the_state_away_from_the_caller() {
        let mut worker = Worker::new(|| vec![1], None);
        assert!(worker.wait(Duration::from_secs(10)));
        let caller = thread::current().id();
        let (release, gate) = mpsc::channel::<()>();
        assert!(worker.start(move |v: &mut Vec<i32>| {
            assert_ne!(thread::current().id(), caller);
            let _ = gate.recv();
            v.push(2);
        }));
        // Away: a second job cannot start.
        assert!(!worker.start(|v: &mut Vec<i32>| v.push(99)));
        release.send(()).unwrap();
        assert!(worker.wait(Duration::from_secs(10)));
        assert!(worker.away().is_none());
        worker.start(|v: &mut Vec<i32>| v.push(3));
        assert!(worker.wait(Duration::from_secs(10)));
        assert_eq!(worker.get(), Some(&mut vec![1, 2, 3]));
    }

    #[test]
    fn a_long_job_can_be_abandoned() {
        let (release, gate) = mpsc::channel::<()>();
        let mut worker = Worker::new(|| 0u32, None);
        worker.wait(Duration::from_secs(10));
        worker.start(move |n: &mut u32| {
            let _ = gate.recv();
            *n += 1;
        });
        assert!(!worker.wait(Duration::from_millis(20)));
        assert!(worker.away().is_some_and(|d| d >= Duration::from_millis(20)));
        assert!(worker.home().is_none() && worker.get().is_none());
        // Given up while away: nothing waits for the job.
        assert_eq!(worker.into_state(), None);
        drop(release);
    }
}
