//! What the engine remembers about calls, within bounds: the calls being decided, awaiting the
//! user or awaiting their result keep their tool part in memory (small ones only); settled
//! calls leave a few bytes each, and only the latest of them.

use crate::ids::{SessionId, ToolCallId};
use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use crate::part::ToolPart;

use super::Engine;

/// How much the engine keeps in memory. Every bound fails closed: a call forgotten early can
/// still be completed from the store, and an approval expired early is never allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineLimits {
    /// The most approval requests awaiting the user at once; the oldest expires (its call
    /// does not run) when a new one would exceed it.
    pub max_pending_approvals: usize,
    /// The most allowed calls whose tool part stays in memory until their result arrives;
    /// older ones are completed from the store.
    pub max_awaiting_results: usize,
    /// The most bytes of input those parts may hold together.
    pub awaiting_result_bytes: usize,
    /// Parts with more input than this are never kept in memory once persisted.
    pub max_part_bytes: usize,
    /// How many settled calls are remembered (to answer 409 rather than 404 quickly).
    pub settled_memory: usize,
    /// How long an approval request waits for the user before it expires (audited as
    /// `Expiry`; its call never runs). `None`: it waits until resolved, cancelled or pushed
    /// out by [`max_pending_approvals`](Self::max_pending_approvals).
    pub approval_timeout: Option<std::time::Duration>,
}

impl Default for EngineLimits {
    fn default() -> Self {
        Self {
            max_pending_approvals: 256,
            max_awaiting_results: 256,
            awaiting_result_bytes: 8 * 1024 * 1024,
            max_part_bytes: 16 * 1024,
            settled_memory: 16_384,
            approval_timeout: None,
        }
    }
}

/// Where a tracked call stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// Being decided.
    Deciding,
    /// Awaiting the user.
    Pending,
    /// Allowed (by the decision or the user); awaiting its result.
    Allowed,
}

/// A call the engine still acts on.
pub(super) struct Tracked {
    pub session_id: SessionId,
    pub message_id: String,
    /// `None` once the part was left to the store to save memory.
    pub part: Option<ToolPart>,
    pub stage: Stage,
    /// The size of the call's input (JSON bytes).
    pub size: usize,
}

/// How a settled call ended, as far as results are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Allowed and forgotten from memory before its result: its part is in the store.
    Allowed,
    /// Denied, by the decision or the user.
    Denied,
    /// It has its result.
    Completed,
    /// Its approval request expired unanswered; it did not run.
    Expired,
}

impl Outcome {
    /// Why a result is refused for a call that ended this way.
    pub(super) fn refusal(self) -> &'static str {
        match self {
            Outcome::Allowed => "it was allowed",
            Outcome::Denied => "it was denied, so it never ran",
            Outcome::Completed => "it already has a result",
            Outcome::Expired => "its approval request expired, so it never ran",
        }
    }
}

/// A settled call, remembered for a while.
pub(super) struct Settled {
    seq: u64,
    pub session_id: SessionId,
    pub outcome: Outcome,
}

/// The allowed calls whose part is in memory, oldest first, with their input sizes.
#[derive(Default)]
pub(super) struct Awaiting {
    order: VecDeque<(ToolCallId, usize)>,
    bytes: usize,
}

impl Engine {
    /// Records how a call ended, forgetting the oldest settled calls beyond the bound.
    pub(super) fn settle(
        &self,
        tool_call_id: &ToolCallId,
        session_id: &SessionId,
        outcome: Outcome,
    ) {
        let inner = &self.inner;
        let memory = inner.limits.settled_memory.max(1) as u64;
        let n = inner.settled_count.fetch_add(1, Ordering::Relaxed);
        inner.settled.insert(
            tool_call_id.to_owned(),
            Settled {
                seq: n,
                session_id: session_id.to_owned(),
                outcome,
            },
        );
        if n > 0 && n.is_multiple_of(memory) {
            let floor = n.saturating_sub(memory);
            inner.settled.retain(|_, s| s.seq >= floor);
        }
    }

    /// Marks a call completed unless it already is; `false` when another result won.
    pub(super) fn claim_completed(
        &self,
        tool_call_id: &ToolCallId,
        session_id: &SessionId,
    ) -> bool {
        let inner = &self.inner;
        match inner.settled.entry(tool_call_id.to_owned()) {
            dashmap::Entry::Occupied(mut o) => {
                if o.get().outcome == Outcome::Completed {
                    return false;
                }
                o.get_mut().outcome = Outcome::Completed;
                true
            }
            dashmap::Entry::Vacant(v) => {
                let seq = inner.settled_count.fetch_add(1, Ordering::Relaxed);
                v.insert(Settled {
                    seq,
                    session_id: session_id.to_owned(),
                    outcome: Outcome::Completed,
                });
                true
            }
        }
    }

    /// Forgets a tracked call that ended (denied, expired, completed).
    pub(super) fn untrack(&self, tool_call_id: &ToolCallId, outcome: Outcome) {
        if let Some((_, t)) = self.inner.tracked.remove(tool_call_id) {
            self.settle(tool_call_id, &t.session_id, outcome);
        }
    }

    /// An allowed call now awaits its result: its part stays in memory while it is small and
    /// within the budget; otherwise (and for the oldest beyond the budget) the store holds it.
    pub(super) fn await_result(&self, tool_call_id: &ToolCallId) {
        let inner = &self.inner;
        let limits = inner.limits;
        let size = match inner.tracked.get(tool_call_id) {
            Some(t) if t.stage == Stage::Allowed => {
                if t.size > limits.max_part_bytes {
                    drop(t);
                    self.forget_allowed(tool_call_id);
                    return;
                }
                t.size
            }
            _ => return,
        };
        let evicted: Vec<ToolCallId> = {
            let mut awaiting = lock(&inner.awaiting);
            awaiting.order.push_back((tool_call_id.to_owned(), size));
            awaiting.bytes += size;
            let mut evicted = Vec::new();
            while awaiting.order.len() > limits.max_awaiting_results
                || (awaiting.bytes > limits.awaiting_result_bytes && awaiting.order.len() > 1)
            {
                let Some((id, size)) = awaiting.order.pop_front() else {
                    break;
                };
                awaiting.bytes = awaiting.bytes.saturating_sub(size);
                evicted.push(id);
            }
            evicted
        };
        for id in evicted {
            self.forget_allowed(&id);
        }
    }

    /// Drops an allowed call's part from memory; its result is later checked against the
    /// store.
    fn forget_allowed(&self, tool_call_id: &ToolCallId) {
        if let Some((_, t)) = self
            .inner
            .tracked
            .remove_if(tool_call_id, |_, t| t.stage == Stage::Allowed)
        {
            self.settle(tool_call_id, &t.session_id, Outcome::Allowed);
        }
    }

    /// Takes a completed call out of the awaiting list.
    pub(super) fn done_awaiting(&self, tool_call_id: &ToolCallId) {
        let mut awaiting = lock(&self.inner.awaiting);
        if let Some(i) = awaiting.order.iter().position(|(id, _)| id == tool_call_id)
            && let Some((_, size)) = awaiting.order.remove(i)
        {
            awaiting.bytes = awaiting.bytes.saturating_sub(size);
        }
    }

    /// A pending call's part leaves memory when it is large (the store holds it).
    pub(super) fn spill_if_large(&self, tool_call_id: &ToolCallId) {
        let max = self.inner.limits.max_part_bytes;
        if let Some(mut t) = self.inner.tracked.get_mut(tool_call_id)
            && t.stage == Stage::Pending
            && t.size > max
        {
            t.part = None;
        }
    }

    /// The session of a call the engine still tracks or remembers.
    pub fn call_session(&self, tool_call_id: &ToolCallId) -> Option<SessionId> {
        if let Some(t) = self.inner.tracked.get(tool_call_id) {
            return Some(t.session_id.clone());
        }
        self.inner
            .settled
            .get(tool_call_id)
            .map(|s| s.session_id.clone())
    }

    /// How many calls the engine holds in memory (being decided, awaiting the user, or
    /// awaiting a result with their part), and how many settled ones it remembers.
    pub fn memory_footprint(&self) -> (usize, usize) {
        (self.inner.tracked.len(), self.inner.settled.len())
    }
}

/// Locks a mutex, tolerating a panic of another holder (the data stays consistent: every
/// critical section is a few pushes and pops).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
