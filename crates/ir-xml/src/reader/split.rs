//! The model's `<layers>` read in two parts at once, on two threads.
//!
//! A guess at where the second part starts (the `<layer ` after the middle
//! of the text left) is read by another thread into a builder of its own,
//! as if a reader of the whole text had come there between two layers,
//! up to the end tag of `<layers>`. The guess may be wrong: the text there
//! may be inside a layer's body, a comment, an attribute value. It is only
//! used when the reader of the first part comes to exactly that byte
//! between two layers of `<layers>`: from there, the whole text's reader
//! would read the same events as the second one did (the tokenizer has no
//! state between two elements but the names of the open elements, which
//! only the end tag of `<layers>` needs, and the second reader checks that
//! end tag's name itself). The second part is then appended to the first
//! in file order, and the first reader skips to that end tag. Otherwise
//! (the first reader passes the byte inside a layer, the second part met
//! an error or a different end tag) the second part is dropped and the
//! first reader goes on alone. So the outcome is always the serial one.
//!
//! The second part's builder differs from the first's in two ways, both
//! undone by the merge: its layers' ids are not looked up (a duplicate of
//! an id of the first part is only found in the merge, and its problem
//! goes where the serial reader would have put it), and its Parameters'
//! symbols are numbered from 0 in a table of its own (renumbered after the
//! first part's).

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{mpsc, Arc};

use ir::dim::{Expr, SymbolId};
use ir::{Graph, Op, Shape, TensorBytes};

use super::{Builder, PendingEdge};
use crate::line_index::{count_newlines, LineIndex};
use crate::text::{MappedText, Releaser, RELEASE_STRETCH};
use crate::xml::{Tokenizer, XmlStream};
use crate::ReadError;

/// Whether and where `<layers>` is read in two parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    /// In two parts when the text is large enough and there are two cores.
    Auto,
    /// In one part (the serial reader).
    #[cfg_attr(not(test), allow(dead_code))]
    Never,
    /// The second part guessed to start at this byte, whatever the size of
    /// the text and the count of cores (tests); it must be a `<`.
    #[cfg_attr(not(test), allow(dead_code))]
    At(usize),
}

/// Texts from `<layers>` on shorter than this are read in one part: a
/// thread costs 30-60 µs to start here (quiet; under load its first
/// slice of a core can come milliseconds later), the second part must
/// first count the lines before it, and its nodes are moved once more.
/// Measured under load 8-10 (docs/performance.md, eighth round): warm
/// reads of 0.3 MB models gained 20% at best, fresh processes nothing at
/// best and lost 14% in the median (relu_1000, swin_narrow); at 80 KB
/// (BERT) even the best fresh read lost.
const SPLIT_FROM: usize = 1 << 20;

/// What reading `<layers>` in two parts needs besides the builder.
pub(crate) struct SplitPlan<'t> {
    /// The mapped text, whose pages each part gives back as it goes.
    pub mapped: Option<&'t MappedText>,
    /// Where the reader's offsets start in the mapped text (after a
    /// byte-order mark).
    pub base: usize,
    pub split: Split,
    /// About how many layers the text has (see `item_estimate`).
    pub layer_estimate: usize,
}

impl SplitPlan<'_> {
    /// Where the second part of a `<layers>` whose content starts at
    /// `from` is guessed to start, or `None` to read it in one part.
    pub fn split_point(&self, text: &str, from: usize) -> Option<usize> {
        match self.split {
            Split::Never => None,
            Split::At(at) => (at > from && text.as_bytes().get(at) == Some(&b'<')).then_some(at),
            Split::Auto => {
                let left = text.len().checked_sub(from)?;
                if left < SPLIT_FROM {
                    return None;
                }
                // The middle of the layers, less a quarter of the edges:
                // the first reader reads the edges after `<layers>` (at
                // about half the cost of layers a byte) while the second
                // ends its part. The end of `<layers>` is looked for in
                // the second half of what is left (the edges are a fifth
                // to a quarter of a model's text).
                let layers_end = self.end_of_layers(text, from + left / 2);
                let edges = text.len() - layers_end;
                let guess = (from + (layers_end - from) / 2).saturating_sub(edges / 4);
                let guess = guess.max(from + 1);
                let after = text.as_bytes().get(guess..)?;
                memchr::memmem::find(after, b"<layer ").map(|at| guess + at)
            }
        }
    }
}

impl SplitPlan<'_> {
    /// Where the last `</layers>` of `text` after byte `from` starts, or
    /// the end of the text. A large mapped text's pages searched are given
    /// back (the first reader comes to them last).
    fn end_of_layers(&self, text: &str, from: usize) -> usize {
        let bytes = text.as_bytes();
        let searched = bytes.get(from..).unwrap_or_default();
        let found = memchr::memrchr_iter(b'<', searched)
            .find(|&at| searched[at..].starts_with(b"</layers"))
            .map_or(text.len(), |at| from + at);
        if let Some(mapped) = self.mapped.filter(|_| searched.len() > RELEASE_STRETCH) {
            mapped.release(self.base + found, self.base + text.len());
        }
        found
    }
}

/// How a list of items was left.
pub(crate) enum ListEnd {
    /// At its end tag, starting at byte `at`.
    Closed { at: usize },
    /// At the byte where the second part starts.
    Reached,
    /// The second part is no longer wanted.
    Abandoned,
}

/// Which part of a list a reader reads.
#[derive(Clone, Copy)]
pub(crate) enum Half<'c> {
    /// All of it.
    Whole,
    /// Up to byte `stop`, if it comes there between two items; once past
    /// it, all of it, and the second part is `abandoned`.
    First {
        stop: usize,
        abandoned: &'c AtomicBool,
    },
    /// From where it was started, until `abandoned`.
    Second { abandoned: &'c AtomicBool },
}

impl Half<'_> {
    /// The byte to stop at before the next item, the reader being at
    /// `position` between two items, or why to leave the list here.
    #[inline]
    pub fn before_item(&mut self, position: usize) -> Result<usize, ListEnd> {
        match *self {
            Half::Whole => Ok(usize::MAX),
            Half::First { stop, abandoned } if position > stop => {
                abandoned.store(true, Ordering::Relaxed);
                *self = Half::Whole;
                Ok(usize::MAX)
            }
            Half::First { stop, .. } => Ok(stop),
            Half::Second { abandoned } if abandoned.load(Ordering::Relaxed) => {
                Err(ListEnd::Abandoned)
            }
            Half::Second { .. } => Ok(usize::MAX),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many second parts this thread has merged (tests check that a
    /// split was not always dropped).
    pub(super) static MERGED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The second part of `<layers>`, read.
pub(crate) struct Part {
    graph: Graph,
    diagnostics: Vec<ir::Diagnostic>,
    /// See [`Builder::deferred_ids`].
    deferred_ids: Vec<(usize, usize)>,
    /// The byte offset of the `</layers>` it ends at.
    end: usize,
}

impl Builder<'_> {
    /// Reads `<layers>` with its second part, guessed to start at `from`,
    /// read on another thread at the same time. When the first reader
    /// comes there before the second part is done, it waits for it (reading
    /// on would only read the same layers twice: a process under load gets
    /// no more of the cores for its second thread, and the 100,000-layer
    /// chain read 50% slower so); when the other thread has not even
    /// started (it may not have had a core yet), the first reader reads
    /// the part itself and never waits for that thread.
    pub(super) fn read_layers_split<'x>(
        &mut self,
        stream: &mut XmlStream<'x>,
        edges: &mut Vec<PendingEdge<'x>>,
        releaser: &mut Releaser<'_>,
        plan: &SplitPlan<'_>,
        from: usize,
    ) -> Result<(), ReadError> {
        let text = self.src;
        let weights = self.weights.clone();
        let weights_name = self.weights_name.clone();
        let job = move |abandoned: &AtomicBool| {
            read_part(text, from, weights, weights_name, plan, abandoned)
        };
        let Some(mut helper) = Helper::start(Box::new(job)) else {
            return self
                .read_items(stream, "layers", edges, releaser, Half::Whole)
                .map(drop);
        };
        let mut half = Half::First {
            stop: from,
            abandoned: &helper.shared.abandoned,
        };
        loop {
            match self.read_items(stream, "layers", edges, releaser, half) {
                Ok(ListEnd::Reached) => {
                    // A split forced at a byte (the tests) waits for its
                    // thread to start: what they check must not depend on
                    // when that thread gets a core.
                    let claimed = match plan.split {
                        Split::At(_) => helper.claimed_once_started(),
                        Split::Auto | Split::Never => helper.claimed(),
                    };
                    if claimed {
                        if let Some(part) = helper.result() {
                            if self.can_merge(&part) && stream.skip_to(part.end) {
                                self.merge(part);
                            }
                        }
                    }
                    half = Half::Whole;
                }
                end => return end.map(drop),
            }
        }
    }

    /// Whether `part` can be appended: its symbols are all fresh and
    /// unnamed (the only ones a Parameter makes), every Parameter dim is a
    /// number or one of them, and there are not too many.
    fn can_merge(&self, part: &Part) -> bool {
        let symbols = &part.graph.symbols;
        if symbols.is_empty() {
            return true;
        }
        let count = self.graph.symbols.len().saturating_add(symbols.len());
        u32::try_from(count).is_ok()
            && symbols
                .iter()
                .all(|(_, info)| info.name.is_none() && info.upper.is_none())
            && part
                .graph
                .graph
                .node_weights()
                .all(|node| plain_dims(&node.op))
    }

    /// Appends the second part's layers, diagnostics and symbols to the
    /// first's, as the serial reader would have read them.
    fn merge(&mut self, part: Part) {
        let Part {
            graph,
            diagnostics,
            deferred_ids,
            end: _,
        } = part;
        // The part's symbols `0..` become `first_symbol..`.
        let first_symbol = u32::try_from(self.graph.symbols.len()).unwrap_or(u32::MAX);
        let renumber = !graph.symbols.is_empty();
        for (_, info) in graph.symbols.iter() {
            self.graph
                .symbols
                .fresh(info.range, info.provenance.clone());
        }
        let (nodes, _) = graph.graph.into_nodes_edges();
        // One growth of the node vector, not a doubling or two.
        self.graph.graph.reserve_nodes(nodes.len());
        let mut diagnostics = diagnostics.into_iter();
        let mut merged = 0;
        let mut deferred = deferred_ids.into_iter().peekable();
        for (index, node) in nodes.into_iter().enumerate() {
            let mut node = node.weight;
            if renumber {
                shift_symbols(&mut node.op, first_symbol);
            }
            let node_id = self.graph.add_node(node);
            if let Some((_, before)) = deferred.next_if(|&(at, _)| at == index) {
                let count = before.saturating_sub(merged);
                self.diagnostics.extend(diagnostics.by_ref().take(count));
                merged += count;
                self.register_id(node_id);
            }
        }
        self.diagnostics.extend(diagnostics);
        #[cfg(test)]
        MERGED.with(|merged| merged.set(merged.get() + 1));
    }
}

/// Reads the second part: called once, on the helper thread, with the flag
/// that tells it to give up.
type Job<'t> = Box<dyn FnOnce(&AtomicBool) -> Option<Part> + Send + 't>;

/// A thread that reads the second part, if it starts before the first
/// reader gives up on it. The job borrows the text, so the thread may only
/// use it while the reader waits for it: the thread first claims the job,
/// and a [`Helper`] is not dropped (the reader does not return) while a
/// claimed job runs. A job never claimed is never run, so the reader need
/// not wait for a thread that has not had a core yet.
struct Helper {
    shared: Arc<Shared>,
    results: mpsc::Receiver<Option<Part>>,
    /// Whether the result has been taken (the job is over).
    over: bool,
}

/// What the reader and the helper thread share.
struct Shared {
    /// [`UNCLAIMED`], [`CLAIMED`] or [`GIVEN_UP`].
    claim: AtomicU8,
    /// The reader no longer wants the part: a running job stops.
    abandoned: AtomicBool,
}

const UNCLAIMED: u8 = 0;
const CLAIMED: u8 = 1;
const GIVEN_UP: u8 = 2;

impl Helper {
    /// Starts a thread for `job`; `None` when no thread can be started.
    fn start(job: Job<'_>) -> Option<Helper> {
        // SAFETY: the job is only called after the thread has claimed it,
        // and then `Helper::drop` waits until it is over (its result sent,
        // or the thread gone): the borrows it holds outlive every use. A
        // job never claimed is dropped unused; dropping its captures
        // (references, an `Arc`'d weights view, a string) touches nothing
        // borrowed.
        let job: Job<'static> = unsafe { std::mem::transmute::<Job<'_>, Job<'static>>(job) };
        let shared = Arc::new(Shared {
            claim: AtomicU8::new(UNCLAIMED),
            abandoned: AtomicBool::new(false),
        });
        let (sender, results) = mpsc::channel();
        let theirs = Arc::clone(&shared);
        let started = std::thread::Builder::new().spawn(move || {
            let claimed = theirs
                .claim
                .compare_exchange(UNCLAIMED, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
            if claimed {
                let part = job(&theirs.abandoned);
                let _ = sender.send(part);
            }
        });
        started.ok().map(|_| Helper {
            shared,
            results,
            over: false,
        })
    }

    /// Whether the thread has started the job; if not, it never will.
    fn claimed(&self) -> bool {
        match self.shared.claim.compare_exchange(
            UNCLAIMED,
            GIVEN_UP,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => false,
            Err(claim) => claim == CLAIMED,
        }
    }

    /// [`Helper::claimed`] once the thread has started.
    fn claimed_once_started(&self) -> bool {
        while self.shared.claim.load(Ordering::Acquire) == UNCLAIMED {
            std::thread::yield_now();
        }
        self.claimed()
    }

    /// The part, once the job is over (`None`: it failed, or its thread
    /// panicked).
    fn result(&mut self) -> Option<Part> {
        self.over = true;
        self.results.recv().ok().flatten()
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.shared.abandoned.store(true, Ordering::Relaxed);
        if !self.over && self.claimed() {
            // Until the job is over: it borrows the text.
            let _ = self.results.recv();
        }
    }
}

/// Whether every Parameter dim of `op` (and of its bodies) is a number or
/// a lone symbol.
fn plain_dims(op: &Op) -> bool {
    match op {
        Op::Parameter { shape, .. } => match shape.as_ref() {
            Shape::Ranked(dims) => dims
                .iter()
                .all(|dim| dim.is_constant() || dim.as_symbol().is_some()),
            Shape::DynamicRank => true,
        },
        Op::SubGraph(sub) => sub.bodies.iter().all(|body| {
            body.graph
                .graph
                .node_weights()
                .all(|node| plain_dims(&node.op))
        }),
        Op::Constant { .. } | Op::Result | Op::Other => true,
    }
}

/// Renumbers the symbols of the Parameter dims of `op` (and of its
/// bodies), all plain (see [`plain_dims`]), by `by`.
fn shift_symbols(op: &mut Op, by: u32) {
    match op {
        Op::Parameter { shape, .. } => {
            if let Shape::Ranked(dims) = shape.as_mut() {
                for dim in dims.iter_mut() {
                    if let Some(symbol) = dim.as_symbol() {
                        *dim = Expr::symbol(SymbolId(symbol.0.saturating_add(by)));
                    }
                }
            }
        }
        Op::SubGraph(sub) => {
            for body in &mut sub.bodies {
                for node in body.graph.graph.node_weights_mut() {
                    shift_symbols(&mut node.op, by);
                }
            }
        }
        Op::Constant { .. } | Op::Result | Op::Other => {}
    }
}

/// Reads the layers of `text` from byte `from` up to the end tag of
/// `<layers>` (the second part), or `None` when that cannot be done as the
/// whole text's reader would do it.
fn read_part(
    text: &str,
    from: usize,
    weights: Option<TensorBytes>,
    weights_name: Option<String>,
    plan: &SplitPlan<'_>,
    abandoned: &AtomicBool,
) -> Option<Part> {
    let before = text.as_bytes().get(..from)?;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |at| at + 1);
    let lines_before = lines_before(text, line_start, plan);
    let lines = LineIndex::starting_at(text, line_start, lines_before);
    let mut stream = XmlStream::starting_at(text, &lines, from, Tokenizer::Own);
    let mut releaser = Releaser::starting_at(plan.mapped, plan.base, from);
    let mut graph = Graph::default();
    // Room for every layer of the text, not half: the guess puts more than
    // half of the layers in this part (see `split_point`), and a vector of
    // half grew by doubling, the old and the new buffer live at once: 12
    // MiB over the peak of the 100,000-layer chain. Slots never written are
    // address space only, no page of them is touched.
    graph.graph.reserve_nodes(plan.layer_estimate);
    let deferred_ids = Some(Vec::new());
    let mut builder = Builder::new(text, &lines, graph, weights, weights_name, deferred_ids);
    let mut edges = Vec::new();
    let second = Half::Second { abandoned };
    let ListEnd::Closed { at } = builder
        .read_items(&mut stream, "layers", &mut edges, &mut releaser, second)
        .ok()?
    else {
        return None;
    };
    closes_layers(text, at).then(|| Part {
        graph: builder.graph,
        diagnostics: builder.diagnostics,
        deferred_ids: builder.deferred_ids.unwrap_or_default(),
        end: at,
    })
}

/// How many lines end before byte `line_start` of `text`. A large mapped
/// text's pages are given back a stretch at a time as they are counted, so
/// that the count does not make the whole first part resident at once (the
/// first reader faults them in again as it reads them).
fn lines_before(text: &str, line_start: usize, plan: &SplitPlan<'_>) -> usize {
    let bytes = text.as_bytes().get(..line_start).unwrap_or_default();
    let give_back = plan.mapped.filter(|_| bytes.len() > 4 * RELEASE_STRETCH);
    let mut count = 0;
    let mut counted = 0;
    for stretch in bytes.chunks(RELEASE_STRETCH) {
        count += count_newlines(stretch);
        if let Some(mapped) = give_back {
            let at = plan.base + counted;
            mapped.release(at, at + stretch.len());
        }
        counted += stretch.len();
    }
    count
}

/// Whether the end tag at byte `at` of `text` is `</layers>` (quick-xml
/// compares the name without the whitespace before the `>`).
fn closes_layers(text: &str, at: usize) -> bool {
    let Some(tag) = text.as_bytes().get(at..) else {
        return false;
    };
    let Some(rest) = tag.strip_prefix(b"</layers") else {
        return false;
    };
    let end = rest.iter().position(|&b| b == b'>');
    end.is_some_and(|end| {
        rest[..end]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    })
}
