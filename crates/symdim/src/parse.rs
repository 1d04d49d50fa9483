//! Parser of the text format of expressions and shapes.

use crate::{DimError, Expr, Interval, ParseError, Provenance, SymbolId, SymbolTable};

/// Longest accepted input, in bytes.
pub const MAX_INPUT_LEN: usize = 1 << 16;
/// Deepest accepted nesting of parentheses, unary signs and function calls.
pub const MAX_DEPTH: usize = 64;

/// Total work the parser may spend combining operands in one input, in
/// products of operand sizes ([`Expr::size`]): guards against inputs that are
/// short but expensive to canonicalize.
pub const MAX_WORK: usize = 1 << 20;

/// Function names that cannot be used as symbol names.
pub const RESERVED: [&str; 5] = ["floor", "ceil", "min", "max", "bcast"];

/// Whether `s` is an identifier `[A-Za-z_][A-Za-z0-9_]*` that is not a
/// reserved function name (such names display as themselves).
pub(crate) fn is_plain_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&s)
}

/// The result of [`SymbolTable::parse_dims`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedShape {
    /// `...`: the rank itself is unknown.
    DynamicRank,
    /// A list of dimensions (empty for a scalar).
    Ranked(Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Int(u64),
    Ident(String),
    SymRef(u64),
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    Comma,
    LBracket,
    RBracket,
    DotDot,
    Ellipsis,
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Int(v) => format!("integer {v}"),
            Tok::Ident(s) => format!("identifier '{s}'"),
            Tok::SymRef(i) => format!("symbol ?{i}"),
            Tok::Question => "'?'".into(),
            Tok::Plus => "'+'".into(),
            Tok::Minus => "'-'".into(),
            Tok::Star => "'*'".into(),
            Tok::Slash => "'/'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Comma => "','".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::DotDot => "'..'".into(),
            Tok::Ellipsis => "'...'".into(),
            Tok::Eof => "end of input".into(),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<(Tok, usize)>, ParseError> {
    if text.len() > MAX_INPUT_LEN {
        return Err(ParseError::new(
            format!(
                "input too long ({} bytes, limit {MAX_INPUT_LEN})",
                text.len()
            ),
            0,
        ));
    }
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let digits = |mut j: usize| -> Result<(u64, usize), ParseError> {
        let start = j;
        let mut v: u64 = 0;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(bytes[j] - b'0')))
                .ok_or_else(|| ParseError::new("integer literal too large", start))?;
            j += 1;
        }
        Ok((v, j))
    };
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let tok = match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' => {
                let (v, j) = digits(i)?;
                i = j;
                Tok::Int(v)
            }
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                Tok::Ident(text[start..i].to_string())
            }
            b'?' => {
                if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    let (v, j) = digits(i + 1)?;
                    i = j;
                    Tok::SymRef(v)
                } else {
                    i += 1;
                    Tok::Question
                }
            }
            b'.' => {
                if bytes.get(i + 1) == Some(&b'.') {
                    if bytes.get(i + 2) == Some(&b'.') {
                        i += 3;
                        Tok::Ellipsis
                    } else {
                        i += 2;
                        Tok::DotDot
                    }
                } else {
                    return Err(ParseError::new("unexpected '.'", i));
                }
            }
            _ => {
                i += 1;
                match b {
                    b'+' => Tok::Plus,
                    b'-' => Tok::Minus,
                    b'*' => Tok::Star,
                    b'/' => Tok::Slash,
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b',' => Tok::Comma,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    _ => {
                        let c = text[start..].chars().next().unwrap_or('?');
                        return Err(ParseError::new(
                            format!("unexpected character {c:?}"),
                            start,
                        ));
                    }
                }
            }
        };
        toks.push((tok, start));
    }
    toks.push((Tok::Eof, text.len()));
    Ok(toks)
}

/// A product being parsed: `value`, or `value / divisor` still pending (kept
/// lazy so that `floor(7/2)` does not try the exact division `7/2`).
struct TermAcc {
    value: Expr,
    pending: Option<(Expr, usize)>,
}

struct Parser<'t> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    depth: usize,
    work: usize,
    table: &'t mut SymbolTable,
}

fn dim_err(e: DimError, offset: usize) -> ParseError {
    ParseError::new(e.to_string(), offset)
}

impl<'t> Parser<'t> {
    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i].0
    }

    fn offset(&self) -> usize {
        self.toks[self.pos.min(self.toks.len() - 1)].1
    }

    fn bump(&mut self) -> (Tok, usize) {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn unexpected(&self, expected: &str) -> ParseError {
        ParseError::new(
            format!("expected {expected}, found {}", self.peek().describe()),
            self.offset(),
        )
    }

    fn expect(&mut self, tok: Tok, expected: &str) -> Result<(), ParseError> {
        if *self.peek() == tok {
            self.bump();
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// Accounts for combining `a` and `b`.
    fn charge(&mut self, a: &Expr, b: &Expr, offset: usize) -> Result<(), ParseError> {
        self.work = self
            .work
            .saturating_add(a.size().max(1).saturating_mul(b.size().max(1)));
        if self.work > MAX_WORK {
            return Err(ParseError::new("expression too complex", offset));
        }
        Ok(())
    }

    fn divide(num: Expr, den: Expr, offset: usize) -> Result<Expr, ParseError> {
        if let Some(k) = den.as_constant() {
            if k == 0 {
                return Err(ParseError::new("division by zero", offset));
            }
            if let Some(q) = num.exact_div(&den) {
                return Ok(q);
            }
            let r = if k > 0 {
                num.assumed_exact_div(k)
            } else {
                num.neg()
                    .and_then(|n| n.assumed_exact_div(k.checked_neg().ok_or(DimError::Overflow)?))
            };
            return r.map_err(|e| dim_err(e, offset));
        }
        num.exact_div(&den)
            .ok_or_else(|| ParseError::new("divisor does not divide the dividend exactly", offset))
    }

    fn finish(t: TermAcc) -> Result<Expr, ParseError> {
        match t.pending {
            None => Ok(t.value),
            Some((den, off)) => Self::divide(t.value, den, off),
        }
    }

    fn parse_sum(&mut self) -> Result<Expr, ParseError> {
        let t = self.parse_term()?;
        let mut acc = Self::finish(t)?;
        loop {
            let off = self.offset();
            let neg = match self.peek() {
                Tok::Plus => false,
                Tok::Minus => true,
                _ => return Ok(acc),
            };
            self.bump();
            let t = self.parse_term()?;
            let rhs = Self::finish(t)?;
            self.charge(&acc, &Expr::one(), off)?;
            self.charge(&rhs, &Expr::one(), off)?;
            acc = if neg { acc.sub(&rhs) } else { acc.add(&rhs) }.map_err(|e| dim_err(e, off))?;
        }
    }

    fn parse_term(&mut self) -> Result<TermAcc, ParseError> {
        let mut t = TermAcc {
            value: self.parse_factor()?,
            pending: None,
        };
        loop {
            let off = self.offset();
            match self.peek() {
                Tok::Star => {
                    self.bump();
                    let rhs = self.parse_factor()?;
                    let v = Self::finish(t)?;
                    self.charge(&v, &rhs, off)?;
                    t = TermAcc {
                        value: v.mul(&rhs).map_err(|e| dim_err(e, off))?,
                        pending: None,
                    };
                }
                Tok::Slash => {
                    self.bump();
                    let rhs = self.parse_factor()?;
                    let v = Self::finish(t)?;
                    self.charge(&v, &rhs, off)?;
                    t = TermAcc {
                        value: v,
                        pending: Some((rhs, off)),
                    };
                }
                _ => return Ok(t),
            }
        }
    }

    fn parse_factor(&mut self) -> Result<Expr, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(
                format!("expression nested too deeply (limit {MAX_DEPTH})"),
                self.offset(),
            ));
        }
        self.depth += 1;
        let r = self.parse_factor_inner();
        self.depth -= 1;
        r
    }

    fn int_value(v: u64, offset: usize) -> Result<i64, ParseError> {
        i64::try_from(v).map_err(|_| ParseError::new("integer literal too large", offset))
    }

    fn parse_factor_inner(&mut self) -> Result<Expr, ParseError> {
        let (tok, off) = self.bump();
        match tok {
            Tok::Minus => {
                if *self.peek() == Tok::Int(1u64 << 63) {
                    self.bump();
                    return Ok(Expr::constant(i64::MIN));
                }
                let f = self.parse_factor()?;
                f.neg().map_err(|e| dim_err(e, off))
            }
            Tok::Plus => self.parse_factor(),
            Tok::Int(v) => Ok(Expr::constant(Self::int_value(v, off)?)),
            Tok::SymRef(i) => {
                if i < self.table.len() as u64 {
                    Ok(Expr::symbol(SymbolId(i as u32)))
                } else {
                    Err(ParseError::new(format!("unknown symbol ?{i}"), off))
                }
            }
            Tok::Ident(name) => {
                if *self.peek() == Tok::LParen {
                    return self.parse_call(&name, off);
                }
                if RESERVED.contains(&name.as_str()) {
                    return Err(ParseError::new(
                        format!("'{name}' is a function and must be followed by '('"),
                        off,
                    ));
                }
                let s = match self.table.lookup(&name) {
                    Some(s) => s,
                    None => self.table.named(&name, Interval::nonnegative()),
                };
                Ok(Expr::symbol(s))
            }
            Tok::LParen => {
                let e = self.parse_sum()?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Question => Err(ParseError::new(
                "'?' is only allowed as a whole dimension",
                off,
            )),
            other => {
                self.pos -= usize::from(other != Tok::Eof);
                Err(self.unexpected("an expression"))
            }
        }
    }

    fn parse_call(&mut self, name: &str, off: usize) -> Result<Expr, ParseError> {
        match name {
            "floor" | "ceil" => {
                self.expect(Tok::LParen, "'('")?;
                let t = self.parse_term()?;
                if *self.peek() != Tok::RParen {
                    return Err(self.unexpected(&format!("')' ({name} takes one 'expr/int')")));
                }
                self.bump();
                let Some((den, den_off)) = t.pending else {
                    return Err(ParseError::new(
                        format!("{name} expects an argument of the form 'expr/int'"),
                        off,
                    ));
                };
                let k = den.as_constant().ok_or_else(|| {
                    ParseError::new(format!("{name} divisor must be an integer"), den_off)
                })?;
                let r = if name == "floor" {
                    t.value.floor_div(k)
                } else {
                    t.value.ceil_div(k)
                };
                r.map_err(|e| dim_err(e, den_off))
            }
            "min" | "max" | "bcast" => {
                self.expect(Tok::LParen, "'('")?;
                let a = self.parse_sum()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_sum()?;
                self.expect(Tok::RParen, "')'")?;
                match name {
                    "min" => Expr::min(&a, &b),
                    "max" => Expr::max(&a, &b),
                    _ => a.bcast(&b),
                }
                .map_err(|e| dim_err(e, off))
            }
            _ => Err(ParseError::new(format!("unknown function '{name}'"), off)),
        }
    }

    fn is_delim(t: &Tok) -> bool {
        matches!(t, Tok::Comma | Tok::RBracket | Tok::Eof)
    }

    fn range_int(&mut self, what: &str) -> Result<i64, ParseError> {
        match self.peek().clone() {
            Tok::Int(v) => {
                let off = self.offset();
                self.bump();
                Self::int_value(v, off)
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn parse_dim(
        &mut self,
        provenance: &dyn Fn() -> Option<Provenance>,
    ) -> Result<Expr, ParseError> {
        let off = self.offset();
        let fresh = |p: &mut Self, lo: i64, hi: Option<i64>| {
            Expr::symbol(p.table.fresh(Interval::new(Some(lo), hi), provenance()))
        };
        match self.peek().clone() {
            Tok::Question => {
                self.bump();
                Ok(fresh(self, 0, None))
            }
            Tok::Minus if *self.peek_at(1) == Tok::Int(1) && Self::is_delim(self.peek_at(2)) => {
                self.bump();
                self.bump();
                Ok(fresh(self, 0, None))
            }
            Tok::DotDot => {
                self.bump();
                let hi = self.range_int("an upper bound")?;
                Ok(fresh(self, 0, Some(hi)))
            }
            Tok::Int(_) if *self.peek_at(1) == Tok::DotDot => {
                let lo = self.range_int("a lower bound")?;
                self.bump();
                if Self::is_delim(self.peek()) {
                    return Ok(fresh(self, lo, None));
                }
                let hi_off = self.offset();
                let hi = self.range_int("an upper bound or ',' / ']'")?;
                match lo.cmp(&hi) {
                    std::cmp::Ordering::Greater => {
                        Err(ParseError::new(format!("empty range {lo}..{hi}"), hi_off))
                    }
                    std::cmp::Ordering::Equal => Ok(Expr::constant(lo)),
                    std::cmp::Ordering::Less => Ok(fresh(self, lo, Some(hi))),
                }
            }
            Tok::Ellipsis => Err(ParseError::new("'...' must be the whole shape", off)),
            _ => {
                let e = self.parse_sum()?;
                if e.as_constant().is_some_and(|c| c < 0) {
                    return Err(ParseError::new("negative dimension", off));
                }
                Ok(e)
            }
        }
    }
}

impl SymbolTable {
    /// Parses an expression in the display format (see the crate docs).
    /// Identifiers refer to the named symbol, created with range `[0, ∞)` if
    /// new; `?<index>` refers to an existing symbol by index. `/` is exact
    /// division: a constant divisor gives the quotient or an exact-division
    /// atom (`4*N*S/3`), a symbolic divisor must divide exactly.
    pub fn parse_expr(&mut self, text: &str) -> Result<Expr, ParseError> {
        let toks = tokenize(text)?;
        let mut p = Parser {
            toks,
            pos: 0,
            depth: 0,
            work: 0,
            table: self,
        };
        let e = p.parse_sum()?;
        p.expect(Tok::Eof, "an operator or end of input")?;
        Ok(e)
    }

    /// Parses a shape: a comma-separated list of dimensions, optionally in
    /// `[` `]`. `[]` or empty text is a scalar; `...` or `[...]` is
    /// [`ParsedShape::DynamicRank`]. Each dimension is an integer `>= 0`;
    /// `?` or `-1` (fresh symbol in `[0, ∞)`); `LO..HI`, `LO..`, `..HI`
    /// (fresh symbol with that range; `LO..LO` is the static `LO`); or an
    /// expression ([`parse_expr`](SymbolTable::parse_expr)). Fresh symbols
    /// get `provenance()`. Never panics.
    pub fn parse_dims(
        &mut self,
        text: &str,
        provenance: &dyn Fn() -> Option<Provenance>,
    ) -> Result<ParsedShape, ParseError> {
        if text.trim().is_empty() {
            return Ok(ParsedShape::Ranked(Vec::new()));
        }
        let toks = tokenize(text)?;
        let mut p = Parser {
            toks,
            pos: 0,
            depth: 0,
            work: 0,
            table: self,
        };
        let bracketed = *p.peek() == Tok::LBracket;
        if bracketed {
            p.bump();
        }
        let close = |p: &mut Parser<'_>| -> Result<(), ParseError> {
            if bracketed {
                p.expect(Tok::RBracket, "']'")?;
            }
            p.expect(Tok::Eof, "end of input")
        };
        if *p.peek() == Tok::Ellipsis {
            p.bump();
            close(&mut p)?;
            return Ok(ParsedShape::DynamicRank);
        }
        if bracketed && *p.peek() == Tok::RBracket {
            close(&mut p)?;
            return Ok(ParsedShape::Ranked(Vec::new()));
        }
        let mut dims = Vec::new();
        loop {
            dims.push(p.parse_dim(provenance)?);
            match p.peek() {
                Tok::Comma => {
                    p.bump();
                }
                _ => break,
            }
        }
        if !matches!(p.peek(), Tok::RBracket | Tok::Eof) {
            return Err(p.unexpected("',' or end of shape"));
        }
        close(&mut p)?;
        Ok(ParsedShape::Ranked(dims))
    }
}
