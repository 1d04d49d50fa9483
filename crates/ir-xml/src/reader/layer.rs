//! A `<layer>` of the model read straight from quick-xml's events into its
//! node: no tree of its elements is built, names and values stay borrowed
//! from the document until the node needs its own. Only a layer's bodies,
//! port maps and back edges (TensorIterator, Loop, If) are read into trees,
//! which [`Builder::finish_layer`] reads as it does a body layer's.
//!
//! The problems found are those [`Builder::add_layer`] finds in a tree of
//! the same layer, in the same order: the children are met in file order
//! either way, and everything the tree path does after its walk over them
//! is [`Builder::finish_layer`] for both.

use std::borrow::Cow;

use ir::{BodyRole, PortDecl};

use super::{Builder, LayerDraft, PORT_KEYS};
use crate::xml::{Attr, Inner, Tree, XmlStream};
use crate::ReadError;

/// A body's, port map's or back edges' place in [`LayerScratch::trees`].
fn tree_slot(role: BodyRole, is_map: bool) -> usize {
    let role = match role {
        BodyRole::Body => 0,
        BodyRole::Then => 1,
        BodyRole::Else => 2,
    };
    role + 3 * usize::from(is_map)
}

/// [`LayerScratch::trees`]' slot of `<back_edges>`.
const BACK_EDGES_SLOT: usize = 6;

/// What reading a layer needs besides the builder, reused from layer to
/// layer so that a model's layers allocate nothing but their nodes once
/// the lists have grown to the largest layer.
#[derive(Default)]
pub(super) struct LayerScratch<'x> {
    /// The attributes of the element met last.
    pub(super) attrs: Vec<Attr<'x>>,
    /// The ports of the layer so far, moved into vectors of their exact
    /// size when the layer ends (the graph keeps them all).
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    /// The dims of the port being read, likewise.
    dims: Vec<ir::DeclaredDim>,
    /// The text of the `<dim>` being read, when it comes in pieces.
    text: String,
    /// A layer's bodies, port maps (by [`tree_slot`]) and back edges
    /// ([`BACK_EDGES_SLOT`]).
    trees: [Tree<'x>; 7],
}

impl LayerScratch<'_> {
    /// The inputs (`true`) or outputs read so far.
    fn ports(&mut self, is_input: bool) -> &mut Vec<PortDecl> {
        if is_input {
            &mut self.inputs
        } else {
            &mut self.outputs
        }
    }

    /// The port being read: the last of the inputs (`true`) or outputs
    /// (always there at [`Level::Port`] and [`Level::Dim`], which are only
    /// reached after one was added).
    fn port(&mut self, is_input: bool) -> Option<&mut PortDecl> {
        self.ports(is_input).last_mut()
    }
}

/// Where the reader of a layer is: which element's children the next
/// event belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The `<layer>`'s own children.
    Layer,
    /// The ports of an `<input>` (`true`) or `<output>`.
    Ports(bool),
    /// The children of a `<port>` of an `<input>` (`true`) or `<output>`.
    Port(bool),
    /// The text of a `<dim>` of such a port.
    Dim(bool),
}

/// The `<dim>` being read.
#[derive(Default)]
struct DimText<'x> {
    /// Where it starts.
    at: usize,
    /// How many pieces of text it has had so far: the first is
    /// `first_piece`, borrowed; past one, all are in the scratch's text.
    pieces: usize,
    first_piece: Cow<'x, str>,
}

/// What comes after a child element's start tag.
enum After {
    /// It was read whole (into a tree).
    Read,
    /// Its children are read at this level.
    Enter(Level),
    /// It is skipped, and what is kept of it when it ends.
    Skip(Verbatim),
}

/// What an element being skipped is kept for, when it ends.
#[derive(Clone, Copy)]
enum Verbatim {
    /// Nothing: it is only checked.
    Nothing,
    /// The layer's `<rt_info>`, starting at the offset.
    Layer(usize),
    /// The `<rt_info>` of the last port of the inputs (`true`) or outputs,
    /// starting at the offset.
    Port(bool, usize),
}

impl Builder<'_> {
    /// Reads the `<layer>` whose start tag, named `name`, was just read
    /// into `draft` (`empty`: `<layer/>`) and adds its node. One loop over
    /// the layer's events with the place in it as a [`Level`]: a function
    /// per element kind, each with its own loop over the events, measured
    /// slower.
    pub(super) fn read_layer<'x>(
        &mut self,
        stream: &mut XmlStream<'x>,
        scratch: &mut LayerScratch<'x>,
        mut draft: LayerDraft,
        name: &'x str,
        empty: bool,
    ) -> Result<(), ReadError> {
        // The bodies and port maps kept, in file order, by their slot.
        let mut bodies: Vec<(BodyRole, usize)> = Vec::new();
        let mut port_maps: Vec<(BodyRole, usize)> = Vec::new();
        let mut has_back_edges = false;
        scratch.inputs.clear();
        scratch.outputs.clear();
        let mut level = Level::Layer;
        let mut dim = DimText::default();
        // An element being skipped: how many of its elements are open, and
        // what is kept of it when it ends.
        let mut skipping = 0usize;
        let mut verbatim = Verbatim::Nothing;
        if !empty {
            stream.enter(name);
            loop {
                if skipping == 0 {
                    let plainly = self.read_plainly(
                        stream,
                        scratch,
                        &mut draft,
                        &mut dim,
                        &mut skipping,
                        level,
                    );
                    match plainly {
                        Some(reached) => level = reached,
                        None => break,
                    }
                    if skipping > 0 {
                        verbatim = Verbatim::Nothing;
                    }
                }
                scratch.attrs.clear();
                // Whitespace before a `<dim>`'s first other text is left out,
                // as the tree leaves it out.
                let blanks = skipping == 0 && matches!(level, Level::Dim(_)) && dim.pieces > 0;
                let event = stream.within(&mut scratch.attrs, blanks)?;
                if skipping > 0 {
                    match event {
                        Inner::Open(child) => skipping += usize::from(!child.empty),
                        Inner::Close { end } => {
                            skipping -= 1;
                            if skipping == 0 {
                                self.keep_verbatim(verbatim, end, &mut draft, scratch);
                            }
                        }
                        Inner::Text(_) => {}
                    }
                    continue;
                }
                let child = match event {
                    Inner::Open(child) => child,
                    Inner::Text(text) => {
                        if let Level::Dim(_) = level {
                            dim.pieces += 1;
                            match dim.pieces {
                                1 => dim.first_piece = text,
                                2 => {
                                    scratch.text.clear();
                                    scratch.text.push_str(&dim.first_piece);
                                    scratch.text.push_str(&text);
                                }
                                _ => scratch.text.push_str(&text),
                            }
                        }
                        continue;
                    }
                    Inner::Close { .. } => {
                        if level == Level::Layer {
                            break;
                        }
                        level = self.close(level, scratch, &draft, &dim);
                        continue;
                    }
                };
                // What the child is, at this level.
                let after = match level {
                    Level::Layer => {
                        if let Some((role, is_map)) = super::body_role(child.name) {
                            let list = if is_map { &mut port_maps } else { &mut bodies };
                            if list.iter().any(|(r, _)| *r == role) {
                                self.ignored_at(
                                    child.name,
                                    child.at,
                                    "a second such element of the `<layer>`",
                                );
                                After::Skip(Verbatim::Nothing)
                            } else {
                                let slot = tree_slot(role, is_map);
                                stream.read_child(
                                    &mut scratch.trees[slot],
                                    child,
                                    &scratch.attrs,
                                )?;
                                list.push((role, slot));
                                After::Read
                            }
                        } else {
                            match child.name {
                                "data" if draft.data.is_none() => {
                                    draft.data =
                                        Some((super::owned_attributes(&scratch.attrs), child.at));
                                    After::Skip(Verbatim::Nothing)
                                }
                                "back_edges" if !has_back_edges => {
                                    let tree = &mut scratch.trees[BACK_EDGES_SLOT];
                                    stream.read_child(tree, child, &scratch.attrs)?;
                                    has_back_edges = true;
                                    After::Read
                                }
                                "rt_info" if draft.rt_info.is_none() => {
                                    After::Skip(Verbatim::Layer(child.at))
                                }
                                "input" | "output" => {
                                    After::Enter(Level::Ports(child.name == "input"))
                                }
                                _ => {
                                    self.ignored_at(
                                        child.name,
                                        child.at,
                                        "not understood in a `<layer>`",
                                    );
                                    After::Skip(Verbatim::Nothing)
                                }
                            }
                        }
                    }
                    Level::Ports(is_input) => {
                        if child.name != "port" {
                            let list = if is_input { "input" } else { "output" };
                            let what = format!("not a `<port>` in `<{list}>`");
                            self.ignored_at(child.name, child.at, &what);
                            After::Skip(Verbatim::Nothing)
                        } else if let Some(decl) =
                            self.port_head(&scratch.attrs, child.at, &draft.head)
                        {
                            // Filled in place: a port is large, and moved
                            // once more per port cost 3% of a read.
                            scratch.ports(is_input).push(decl);
                            scratch.dims.clear();
                            After::Enter(Level::Port(is_input))
                        } else {
                            After::Skip(Verbatim::Nothing)
                        }
                    }
                    Level::Port(is_input) => match child.name {
                        "dim" => {
                            dim.at = child.at;
                            dim.pieces = 0;
                            After::Enter(Level::Dim(is_input))
                        }
                        "rt_info"
                            if scratch
                                .port(is_input)
                                .is_some_and(|port| port.rt_info().is_none()) =>
                        {
                            After::Skip(Verbatim::Port(is_input, child.at))
                        }
                        _ => {
                            self.ignored_at(child.name, child.at, "not understood in a `<port>`");
                            After::Skip(Verbatim::Nothing)
                        }
                    },
                    // Elements inside a `<dim>` are checked, their text left out.
                    Level::Dim(_) => After::Skip(Verbatim::Nothing),
                };
                match after {
                    After::Read => {}
                    After::Enter(inner) if child.empty => {
                        // An empty `<input/>`, `<port/>` or `<dim/>` ends at once.
                        dim.pieces = 0;
                        self.close(inner, scratch, &draft, &dim);
                    }
                    After::Enter(Level::Dim(is_input)) => {
                        // Nearly every `<dim>` is a number then its end tag:
                        // read at once, its two events were 7% of a read (relu_1000).
                        match stream.plain_text_and_close() {
                            Some(text) => {
                                dim.pieces = 1;
                                dim.first_piece = Cow::Borrowed(text);
                                level = self.close(Level::Dim(is_input), scratch, &draft, &dim);
                            }
                            None => level = Level::Dim(is_input),
                        }
                    }
                    After::Enter(inner) => level = inner,
                    After::Skip(kept) if child.empty => {
                        self.keep_verbatim(kept, child.end, &mut draft, scratch);
                    }
                    After::Skip(kept) => {
                        skipping = 1;
                        verbatim = kept;
                    }
                }
            }
        }
        draft.inputs = take_exact(&mut scratch.inputs);
        draft.outputs = take_exact(&mut scratch.outputs);
        let trees = &scratch.trees;
        // Nearly every layer has none: no call to collect an empty list.
        let kept = |list: Vec<(BodyRole, usize)>| {
            if list.is_empty() {
                return Vec::new();
            }
            list.into_iter()
                .map(|(role, slot)| (role, trees[slot].root()))
                .collect()
        };
        let back_edges = has_back_edges.then(|| trees[BACK_EDGES_SLOT].root());
        self.finish_layer(draft, kept(bodies), kept(port_maps), back_edges);
        Ok(())
    }

    /// Reads from `level` on what is written plainly in the order a
    /// layer's ports nearly always are (`<input>`, `<output>`, `<port>`s
    /// with plain attributes, `<dim>`s with a number, end tags), as the
    /// loop of [`Builder::read_layer`] reads it event by event, without its
    /// events: they were most of a layer's (relu_1000: 10 of 11). The level
    /// reached, where something else comes (left to the loop, which skips
    /// a port without a valid id when `skipping` is set), or `None` at the
    /// layer's own end tag. Whitespace is passed over outside a `<dim>`,
    /// where the loop drops it.
    #[inline(always)]
    fn read_plainly<'x>(
        &mut self,
        stream: &mut XmlStream<'x>,
        scratch: &mut LayerScratch<'x>,
        draft: &mut LayerDraft,
        dim: &mut DimText<'x>,
        skipping: &mut usize,
        mut level: Level,
    ) -> Option<Level> {
        loop {
            if let Level::Dim(_) = level {
                return Some(level);
            }
            stream.skip_blank_text();
            match level {
                Level::Layer => {
                    if stream.plain_end().is_some() {
                        return None;
                    }
                    if stream.plain_start(b"input").is_some() {
                        level = Level::Ports(true);
                    } else if stream.plain_start(b"output").is_some() {
                        level = Level::Ports(false);
                    } else if draft.data.is_some() {
                        return Some(level);
                    } else {
                        scratch.attrs.clear();
                        let Some(data) = stream.plain_start_with_attrs("data", &mut scratch.attrs)
                        else {
                            return Some(level);
                        };
                        draft.data = Some((super::owned_attributes(&scratch.attrs), data.at));
                        if !data.empty {
                            // Its content is checked, as the loop checks it.
                            *skipping = 1;
                            return Some(level);
                        }
                    }
                }
                Level::Ports(is_input) => {
                    if stream.plain_end().is_some() {
                        level = Level::Layer;
                        continue;
                    }
                    let (decl, empty) = match stream.keyed_start("port", &PORT_KEYS) {
                        Some(tag) => (self.keyed_port_head(&tag, &draft.head), tag.empty),
                        None => {
                            scratch.attrs.clear();
                            let Some(port) =
                                stream.plain_start_with_attrs("port", &mut scratch.attrs)
                            else {
                                return Some(level);
                            };
                            (
                                self.port_head(&scratch.attrs, port.at, &draft.head),
                                port.empty,
                            )
                        }
                    };
                    match decl {
                        Some(decl) => {
                            scratch.ports(is_input).push(decl);
                            scratch.dims.clear();
                            if empty {
                                dim.pieces = 0;
                                self.close(Level::Port(is_input), scratch, draft, dim);
                            } else {
                                level = Level::Port(is_input);
                            }
                        }
                        // Skipped, as the loop skips it.
                        None if empty => {}
                        None => {
                            *skipping = 1;
                            return Some(level);
                        }
                    }
                }
                Level::Port(is_input) => {
                    if let Some((at, text)) = stream.plain_dim() {
                        // As `close` ends a `<dim>` of one piece of text.
                        let id = scratch.port(is_input).map_or(0, |port| port.id);
                        let declared = self.declared_dim(text, at, id, &draft.head);
                        scratch.dims.push(declared);
                    } else if let Some(at) = stream.plain_start(b"dim") {
                        dim.at = at;
                        dim.pieces = 0;
                        let Some(text) = stream.plain_text_and_close() else {
                            return Some(Level::Dim(is_input));
                        };
                        dim.pieces = 1;
                        dim.first_piece = Cow::Borrowed(text);
                        level = self.close(Level::Dim(is_input), scratch, draft, dim);
                    } else if stream.plain_end().is_some() {
                        level = self.close(level, scratch, draft, dim);
                    } else {
                        return Some(level);
                    }
                }
                Level::Dim(_) => return Some(level),
            }
        }
    }

    /// Ends the element read at `level` (not the layer's own): a port is
    /// added to its list, a dim to its port. The level of its parent.
    fn close(
        &mut self,
        level: Level,
        scratch: &mut LayerScratch<'_>,
        draft: &LayerDraft,
        dim: &DimText<'_>,
    ) -> Level {
        match level {
            Level::Layer | Level::Ports(_) => Level::Layer,
            Level::Port(is_input) => {
                let dims = take_exact(&mut scratch.dims);
                if let Some(port) = scratch.port(is_input) {
                    port.dims = dims;
                }
                Level::Ports(is_input)
            }
            Level::Dim(is_input) => {
                let id = scratch.port(is_input).map_or(0, |port| port.id);
                let text = match dim.pieces {
                    0 => "",
                    1 => dim.first_piece.as_ref(),
                    _ => scratch.text.as_str(),
                };
                let declared = self.declared_dim(text, dim.at, id, &draft.head);
                scratch.dims.push(declared);
                Level::Port(is_input)
            }
        }
    }

    /// Keeps the source of an `<rt_info>` that ends at `end`, as `kept` says.
    fn keep_verbatim(
        &self,
        kept: Verbatim,
        end: usize,
        draft: &mut LayerDraft,
        scratch: &mut LayerScratch<'_>,
    ) {
        let text = |at: usize| Some(self.src.get(at..end).unwrap_or_default().to_owned());
        match kept {
            Verbatim::Nothing => {}
            Verbatim::Layer(at) => draft.rt_info = text(at),
            Verbatim::Port(is_input, at) => {
                if let Some(port) = scratch.port(is_input) {
                    port.set_rt_info(text(at));
                }
            }
        }
    }
}

/// The items of `from` (left empty) in a vector of their exact size: one
/// copy of the whole list, not an item at a time.
fn take_exact<T>(from: &mut Vec<T>) -> Vec<T> {
    let mut items = Vec::with_capacity(from.len());
    items.append(from);
    items
}
