"""Core-language half of the program generator: types, type-directed expressions and statements.

Every expression is produced for a requested type from what is in scope, so a generated program
is well-typed by construction; `fitz check` rejecting one is a generator (or checker) bug.
"""

# Types are tuples: ("Int",), ("List", t), ("Map", t) with Str keys, ("Opt", t), ("Res", t),
# ("Struct", name), ("Tup", a, b), ("Fn", arg, ret).
INT, FLOAT, STR, BOOL = ("Int",), ("Float",), ("Str",), ("Bool",)
SCALARS = [INT, FLOAT, STR, BOOL]


def List(t):
    return ("List", t)


def Map(t):
    return ("Map", t)


def Opt(t):
    return ("Opt", t)


def Res(t):
    return ("Res", t)


def fmt(t):
    k = t[0]
    if k == "List":
        return "List<%s>" % fmt(t[1])
    if k == "Map":
        return "Map<Str, %s>" % fmt(t[1])
    if k == "Opt":
        return fmt(t[1]) + "?"
    if k == "Res":
        return "Result<%s>" % fmt(t[1])
    if k == "Struct":
        return t[1]
    if k == "Tup":
        return "(%s, %s)" % (fmt(t[1]), fmt(t[2]))
    if k == "Fn":
        return "Fn(%s) -> %s" % (fmt(t[1]), fmt(t[2]))
    return k


WORDS = ["alpha", "beta", "gamma", "delta", "omega", "kiwi", "plum", "fig", "red", "blue", "ok", "x y"]


class Scope:
    """What a function body can see: locals (name -> type), whether it may `.await` and what it returns."""

    def __init__(self, ret=None, is_async=False, parent=None):
        self.vars = dict(parent.vars) if parent else {}
        self.ret = ret if ret is not None or parent is None else parent.ret
        self.is_async = is_async if parent is None else parent.is_async
        self.in_loop = parent.in_loop if parent else False
        self.in_lambda = parent.in_lambda if parent else False
        self.in_comp = parent.in_comp if parent else False
        self.err_type = parent.err_type if parent else "Str"

    def child(self):
        return Scope(parent=self)


class Program:
    """Declarations generated so far: structs, functions and top-level names."""

    def __init__(self):
        self.structs = {}   # name -> {"fields": [(name, type, default_expr|None)], "methods": [...]}
        self.funcs = []     # (name, [param types], ret, is_async, [defaults or None])
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)


class CoreGen:
    def __init__(self, rng, prog=None):
        self.r = rng
        self.p = prog or Program()

    # ---- types -------------------------------------------------------------------------------

    def scalar(self):
        return self.r.choice(SCALARS)

    def rand_type(self, depth=0, structs=True):
        r = self.r.random()
        if depth >= 2 or r < 0.45:
            if structs and self.p.structs and self.r.random() < 0.25:
                return ("Struct", self.r.choice(list(self.p.structs)))
            return self.scalar()
        if r < 0.65:
            return List(self.rand_type(depth + 1, structs))
        if r < 0.78:
            return Map(self.rand_type(depth + 1, structs))
        if r < 0.88:
            return Opt(self.scalar() if self.r.random() < 0.7 else self.rand_type(depth + 1, structs))
        if r < 0.95:
            return ("Tup", self.scalar(), self.scalar())
        return Res(self.rand_type(depth + 1, structs))

    # ---- expressions -------------------------------------------------------------------------

    def vars_of(self, sc, t):
        return [n for n, vt in sc.vars.items() if vt == t]

    def lit(self, t):
        k = t[0]
        r = self.r
        if k == "Int":
            return r.choice(["0", "1", "2", "7", "42", "1_000", "0x1f", "0b101", "-3", "100"])
        if k == "Float":
            return r.choice(["0.5", "1.0", "2.25", "3.5e2", "-1.5", "100.0"])
        if k == "Str":
            return '"%s"' % r.choice(WORDS)
        if k == "Bool":
            return r.choice(["true", "false"])
        raise ValueError(t)

    def expr(self, t, sc, d=0):
        """An expression of exactly type `t` (or a subtype the checker takes for it)."""
        r = self.r
        k = t[0]
        cands = self.vars_of(sc, t)
        if cands and r.random() < 0.35:
            return r.choice(cands)
        if d >= 3:
            return self.leaf(t, sc)
        # Calls of generated functions that return t.
        fns = [f for f in self.p.funcs if f[2] == t and (not f[3] or sc.is_async)]
        if fns and r.random() < 0.15:
            return self.call(r.choice(fns), sc, d)
        # Field reads of struct-typed values.
        if r.random() < 0.12:
            e = self.field_read(t, sc, d)
            if e:
                return e
        if r.random() < 0.08 and k in ("Int", "Str", "Float", "Bool"):
            return self.if_expr(t, sc, d)
        if r.random() < 0.06:
            return self.match_expr(t, sc, d)
        gen = getattr(self, "e_" + k.lower())
        return gen(t, sc, d)

    def leaf(self, t, sc):
        k = t[0]
        cands = self.vars_of(sc, t)
        if cands:
            return self.r.choice(cands)
        if k in ("Int", "Float", "Str", "Bool"):
            return self.lit(t)
        if k == "List":
            if t[1][0] == "Opt":
                return "[null, %s]" % self.leaf(t[1][1], sc)
            return "[%s]" % self.leaf(t[1], sc)
        if k == "Map":
            if t[1][0] == "Opt":
                return '{"k": null, "j": %s}' % self.leaf(t[1][1], sc)
            return '{"k": %s}' % self.leaf(t[1], sc)
        if k == "Opt":
            return "null"
        if k == "Res":
            return "Ok(%s)" % self.leaf(t[1], sc)
        if k == "Tup":
            return "(%s, %s)" % (self.leaf(t[1], sc), self.leaf(t[2], sc))
        if k == "Struct":
            return self.struct_lit(t[1], sc, 3)
        if k == "Fn":
            return self.lambda_(t, sc, 3)
        raise ValueError(t)

    def call(self, f, sc, d):
        name, params, ret, is_async, defaults = f
        args = []
        for i, pt in enumerate(params):
            if defaults and defaults[i] is not None and self.r.random() < 0.4:
                break
            args.append(self.expr(pt, sc, d + 1))
        s = "%s(%s)" % (name, ", ".join(args))
        return s + ".await" if is_async else s

    def field_read(self, t, sc, d):
        opts = []
        for sname, s in self.p.structs.items():
            for fname, ft, _ in s["fields"]:
                if ft == t and not fname.startswith("_"):
                    opts.append((sname, fname))
        if not opts:
            return None
        sname, fname = self.r.choice(opts)
        base = self.expr(("Struct", sname), sc, d + 1)
        if not base.isidentifier():
            base = "(%s)" % base
        return "%s.%s" % (base, fname)

    def if_expr(self, t, sc, d):
        return "if %s { %s } else { %s }" % (self.expr(BOOL, sc, d + 1), self.expr(t, sc, d + 1), self.expr(t, sc, d + 1))

    def arm(self, t, sc, d):
        e = self.expr(t, sc, d)
        # An arm body starting with `{` is a block, not a map literal.
        return "(%s)" % e if e.startswith("{") else e

    def match_expr(self, t, sc, d):
        r = self.r
        v = self.p.fresh("m")
        kind = r.choice(["int", "str", "res", "opt"])
        opt_vars = [n for n, vt in sc.vars.items() if vt[0] == "Opt" and vt[1][0] in ("Int", "Float", "Str", "Bool")]
        if kind == "opt" and not opt_vars:
            kind = "int"
        inner = sc.child()
        if kind == "int":
            arms = ["0 => %s" % self.arm(t, sc, d + 1), "1 | 2 => %s" % self.arm(t, sc, d + 1),
                    "3..=9 => %s" % self.arm(t, sc, d + 1)]
            inner.vars[v] = INT
            arms.append("%s if %s > 10 => %s" % (v, v, self.arm(t, inner, d + 1)))
            arms.append("_ => %s" % self.arm(t, sc, d + 1))
            scrut = self.expr(INT, sc, d + 1)
        elif kind == "str":
            arms = ['"%s" => %s' % (r.choice(WORDS), self.arm(t, sc, d + 1)), "_ => %s" % self.arm(t, sc, d + 1)]
            scrut = self.expr(STR, sc, d + 1)
        elif kind == "res":
            et = self.scalar()
            inner.vars[v] = et
            e = self.p.fresh("err")
            inner2 = sc.child()
            inner2.vars[e] = STR
            arms = ["Ok(%s) => %s" % (v, self.arm(t, inner, d + 1)), "Err(%s) => %s" % (e, self.arm(t, inner2, d + 1))]
            scrut = self.expr(Res(et), sc, d + 1)
        else:
            scrut = r.choice(opt_vars)
            inner.vars[v] = sc.vars[scrut][1]
            # Past the `null` arm the checker knows the scrutinee is not null (a nested
            # `match scrut { null => ... }` there is an error).
            inner.vars[scrut] = sc.vars[scrut][1]
            arms = ["null => %s" % self.arm(t, sc, d + 1), "%s => %s" % (v, self.arm(t, inner, d + 1))]
        sep = "\n" if r.random() < 0.5 else ", "
        return "match %s { %s }" % (self.wrap_cond(scrut), sep.join(arms)) if sep == ", " else \
            "match %s {\n%s\n}" % (self.wrap_cond(scrut), "\n".join(arms))

    @staticmethod
    def wrap_cond(e):
        # Struct literals are not allowed directly in conditions and scrutinees.
        return "(%s)" % e if "{" in e else e

    def lambda_(self, t, sc, d):
        v = self.p.fresh("p")
        inner = sc.child()
        inner.vars[v] = t[1]
        inner.is_async = False
        inner.in_lambda = True
        return "fn(%s: %s) => %s" % (v, fmt(t[1]), self.expr(t[2], inner, d + 1))

    def pred(self, et, sc, d):
        return self.lambda_(("Fn", et, BOOL), sc, d)

    def e_int(self, t, sc, d):
        r = self.r
        c = r.randrange(14)
        sub = lambda: self.expr(INT, sc, d + 1)
        if c == 0:
            return "%s %s %s" % (sub(), r.choice(["+", "-", "*"]), sub())
        if c == 1:
            return "(%s) / %d" % (sub(), r.randint(1, 9))
        if c == 2:
            lt = List(self.scalar() if r.random() < 0.7 else self.rand_type(1))
            return "len(%s)" % self.expr(lt, sc, d + 1)
        if c == 3:
            return "%s.len()" % self.paren(self.expr(STR, sc, d + 1))
        if c == 4:
            return "%s.sum()" % self.paren(self.expr(List(INT), sc, d + 1))
        if c == 5:
            et = self.scalar()
            return "%s.count(%s)" % (self.paren(self.expr(List(et), sc, d + 1)), self.pred(et, sc, d))
        if c == 6:
            return "%s.abs()" % self.paren(sub())
        if c == 7:
            acc, v = self.p.fresh("acc"), self.p.fresh("x")
            inner = sc.child()
            inner.vars[acc] = INT
            inner.vars[v] = INT
            inner.is_async = False
            return "%s.reduce(0, fn(%s: Int, %s: Int) => %s + %s)" % (self.paren(self.expr(List(INT), sc, d + 1)), acc, v, acc, v)
        if c == 8:
            return "(%s %% %d)" % (sub(), r.randint(2, 9))
        if c == 9:
            return "%s.len()" % self.paren(self.expr(Map(self.scalar()), sc, d + 1))
        if c == 10:
            return "(%s & 0xff) | (%s << 2)" % (sub(), sub())
        if c == 11:
            tv = self.expr(("Tup", INT, self.scalar()), sc, d + 1)
            return "%s.0" % self.paren(tv)
        if c == 12:
            return "len(%s)" % self.expr(STR, sc, d + 1)
        return self.lit(INT)

    @staticmethod
    def paren(e):
        return e if e.isidentifier() else "(%s)" % e

    def e_float(self, t, sc, d):
        r = self.r
        c = r.randrange(7)
        sub = lambda: self.expr(FLOAT, sc, d + 1)
        if c == 0:
            return "%s %s %s" % (sub(), r.choice(["+", "-", "*", "/"]), sub())
        if c == 1:
            return "%s * 1.5" % self.paren(self.expr(INT, sc, d + 1))
        if c == 2:
            return "%s.sum()" % self.paren(self.expr(List(FLOAT), sc, d + 1))
        if c == 3:
            return "%s.abs()" % self.paren(sub())
        if c == 4:
            return "%s + 0.25" % self.paren(self.expr(INT, sc, d + 1))
        return self.lit(FLOAT)

    def e_str(self, t, sc, d):
        r = self.r
        c = r.randrange(12)
        sub = lambda: self.expr(STR, sc, d + 1)
        if c == 0:
            return "%s + %s" % (sub(), sub())
        if c in (1, 2):
            parts = []
            for _ in range(r.randint(1, 3)):
                pt = r.choice([INT, FLOAT, STR, BOOL, List(INT)])
                e = self.expr(pt, sc, d + 2)
                spec = ""
                if pt == FLOAT and r.random() < 0.5:
                    spec = r.choice([":.2f", ":>8.1f", ":e"])
                if pt == INT and r.random() < 0.3:
                    spec = r.choice([":05", ":x", ":>6", ":,"])
                if '"' in e and "{" in e:
                    e = self.leaf(pt, sc)
                parts.append("{%s%s}" % (e, spec))
            return '"%s %s"' % (r.choice(WORDS), " - ".join(parts))
        if c == 3:
            return "%s.%s()" % (self.paren(sub()), r.choice(["upper", "lower", "trim", "trim_start", "title"]))
        if c == 4:
            return "%s.to_str()" % self.paren(self.expr(INT, sc, d + 1))
        if c == 5:
            return '%s.replace("a", %s)' % (self.paren(sub()), sub())
        if c == 6:
            return "%s.repeat(%d)" % (self.paren(sub()), r.randint(0, 3))
        if c == 7:
            return "%s.left(%d)" % (self.paren(sub()), r.randint(0, 4))
        if c == 8:
            return '%s.pad_start(%d, "*")' % (self.paren(sub()), r.randint(1, 9))
        if c == 9:
            return "%s.to_str()" % self.paren(self.expr(FLOAT, sc, d + 1))
        return self.lit(STR)

    def e_bool(self, t, sc, d):
        r = self.r
        c = r.randrange(12)
        if c == 0:
            return "%s %s %s" % (self.expr(INT, sc, d + 1), r.choice(["<", "<=", ">", ">=", "==", "!="]), self.expr(INT, sc, d + 1))
        if c == 1:
            return "%s %s %s" % (self.expr(BOOL, sc, d + 1), r.choice(["and", "or", "xor"]), self.expr(BOOL, sc, d + 1))
        if c == 2:
            return "not %s" % self.paren(self.expr(BOOL, sc, d + 1))
        if c == 3:
            return "%s == %s" % (self.expr(STR, sc, d + 1), self.expr(STR, sc, d + 1))
        if c == 4:
            et = self.scalar()
            return "%s.contains(%s)" % (self.paren(self.expr(List(et), sc, d + 1)), self.expr(et, sc, d + 1))
        if c == 5:
            return "%s.has(%s)" % (self.paren(self.expr(Map(self.scalar()), sc, d + 1)), self.expr(STR, sc, d + 1))
        if c == 6:
            return "%s.%s(%s)" % (self.paren(self.expr(STR, sc, d + 1)), r.choice(["starts_with", "ends_with", "contains"]), self.expr(STR, sc, d + 1))
        if c == 7:
            et = self.scalar()
            return "%s.%s(%s)" % (self.paren(self.expr(List(et), sc, d + 1)), r.choice(["any", "all"]), self.pred(et, sc, d))
        if c == 8:
            ot = Opt(self.scalar())
            return "%s %s null" % (self.expr(ot, sc, d + 1), r.choice(["==", "!="]))
        if c == 9:
            return "%s < %s" % (self.expr(FLOAT, sc, d + 1), self.expr(FLOAT, sc, d + 1))
        if c == 10:
            rt = Res(self.scalar())
            return "%s == Ok(%s)" % (self.expr(rt, sc, d + 1), self.expr(rt[1], sc, d + 1))
        return self.lit(BOOL)

    def e_list(self, t, sc, d):
        r = self.r
        et = t[1]
        c = r.randrange(10)
        # A nullable element type only comes from a literal with a null and a value in it
        # (`[e for ...]` or `.map` of a null would be List<Null>).
        if c <= 2 or d >= 2 or et[0] == "Opt":
            if et[0] == "Opt":
                return "[null, %s]" % self.expr(et[1], sc, d + 1)
            n = r.randint(1, 3)
            return "[%s]" % ", ".join(self.expr(et, sc, d + 1) for _ in range(n))
        if c == 3:
            src = self.scalar()
            v = self.p.fresh("x")
            inner = sc.child()
            inner.vars[v] = src
            inner.is_async = False
            return "%s.map(fn(%s: %s) => %s)" % (self.paren(self.expr(List(src), sc, d + 1)), v, fmt(src), self.expr(et, inner, d + 1))
        if c == 4:
            return "%s.filter(%s)" % (self.paren(self.expr(t, sc, d + 1)), self.pred(et, sc, d))
        if c == 5:
            v = self.p.fresh("i")
            inner = sc.child()
            inner.vars[v] = INT
            inner.is_async = False
            inner.in_comp = True
            cond = " if %s %% 2 == 0" % v if r.random() < 0.5 else ""
            return "[%s for %s in 0..%d%s]" % (self.expr(et, inner, d + 1), v, r.randint(1, 5), cond)
        if c == 6:
            return "%s.%s(%d)" % (self.paren(self.expr(t, sc, d + 1)), r.choice(["take", "drop"]), r.randint(0, 3))
        if c == 7:
            return "%s.chain(%s)" % (self.paren(self.expr(t, sc, d + 1)), self.expr(t, sc, d + 1))
        if c == 8:
            return "%s[%d..]" % (self.paren(self.expr(t, sc, d + 1)), r.randint(0, 2))
        if et == STR:
            return '%s.split(",")' % self.paren(self.expr(STR, sc, d + 1))
        return "%s.unique()" % self.paren(self.expr(t, sc, d + 1))

    def e_map(self, t, sc, d):
        r = self.r
        vt = t[1]
        c = r.randrange(6)
        if c <= 2 or d >= 2 or vt[0] == "Opt":
            if vt[0] == "Opt":
                return '{"k": null, "j": %s}' % self.expr(vt[1], sc, d + 1)
            n = r.randint(1, 3)
            keys = r.sample(WORDS, n)
            return "{%s}" % ", ".join('"%s": %s' % (k, self.expr(vt, sc, d + 1)) for k in keys)
        if c == 3:
            return '%s.with(%s, %s)' % (self.paren(self.expr(t, sc, d + 1)), self.expr(STR, sc, d + 1), self.expr(vt, sc, d + 1))
        if c == 4:
            return "%s.merge(%s)" % (self.paren(self.expr(t, sc, d + 1)), self.expr(t, sc, d + 1))
        v = self.p.fresh("w")
        inner = sc.child()
        inner.vars[v] = STR
        inner.is_async = False
        inner.in_comp = True
        return "{%s: %s for %s in %s}" % (v, self.expr(vt, inner, d + 1), v, self.paren(self.expr(List(STR), sc, d + 1)))

    def e_opt(self, t, sc, d):
        if self.r.random() < 0.3:
            return "null"
        return self.expr(t[1], sc, d + 1)

    def e_res(self, t, sc, d):
        r = self.r
        vt = t[1]
        c = r.randrange(6)
        if c == 0:
            return 'Err("%s")' % r.choice(WORDS)
        if c == 1:
            return "%s.get(%s)" % (self.paren(self.expr(Map(vt), sc, d + 1)), self.expr(STR, sc, d + 1))
        if c == 2:
            return "%s.%s()" % (self.paren(self.expr(List(vt), sc, d + 1)), r.choice(["first", "last"]))
        if c == 3:
            return "%s.find(%s)" % (self.paren(self.expr(List(vt), sc, d + 1)), self.pred(vt, sc, d))
        return "Ok(%s)" % self.expr(vt, sc, d + 1)

    def e_tup(self, t, sc, d):
        return "(%s, %s)" % (self.expr(t[1], sc, d + 1), self.expr(t[2], sc, d + 1))

    def e_struct(self, t, sc, d):
        s = self.p.structs[t[1]]
        statics = [m for m in s["methods"] if m["static"] and m["ret"] == t]
        if statics and self.r.random() < 0.3:
            m = self.r.choice(statics)
            return "%s.%s(%s)" % (t[1], m["name"], ", ".join(self.expr(pt, sc, d + 1) for pt in m["params"]))
        return self.struct_lit(t[1], sc, d)

    def struct_lit(self, name, sc, d):
        s = self.p.structs[name]
        parts = []
        for fname, ft, default in s["fields"]:
            if default is not None and self.r.random() < 0.5:
                continue
            if ft[0] == "Opt" and self.r.random() < 0.5:
                continue
            parts.append("%s: %s" % (fname, self.expr(ft, sc, min(d + 1, 3))))
        if not parts:
            # `return T {}` would parse as a status return named by a constant `T`.
            fname, ft, _ = s["fields"][0]
            parts.append("%s: %s" % (fname, self.expr(ft, sc, 3)))
        self.r.shuffle(parts)
        return "%s { %s }" % (name, ", ".join(parts))

    def e_fn(self, t, sc, d):
        return self.lambda_(t, sc, d)

    # ---- statements --------------------------------------------------------------------------

    def stmts(self, sc, n, ind, d=0):
        out = []
        for _ in range(n):
            out.extend(self.stmt(sc, ind, d))
        return out

    def declare(self, sc, t, ind, d, annotate=None):
        v = self.p.fresh("v")
        e = self.expr(t, sc, d)
        ann = annotate if annotate is not None else self.r.random() < 0.4
        # An unannotated literal takes its literal's own type; annotate whenever unsure.
        if t[0] in ("Opt", "Res", "Fn") or e in ("[]", "{}", "null") or e.startswith(("Err(", "Ok(", "[", "{", "if ", "match ")):
            ann = True
        line = "let %s: %s = %s" % (v, fmt(t), e) if ann else "let %s = %s" % (v, e)
        sc.vars[v] = t
        return v, [ind + l for l in line.split("\n")]

    def stmt(self, sc, ind, d):
        r = self.r
        c = r.randrange(20)
        if d >= 2:
            c = r.choice([0, 0, 1, 2, 3])
        if c <= 4:
            _, lines = self.declare(sc, self.rand_type(), ind, d)
            return lines
        if c == 5:
            assignable = [(n, t) for n, t in sc.vars.items() if not n.startswith("arg")]
            if assignable:
                n, t = r.choice(assignable)
                if t in (INT, FLOAT, STR) and r.random() < 0.5:
                    return [ind + "%s += %s" % (n, self.expr(t, sc, 1))]
                return [ind + "%s = %s" % (n, self.expr(t, sc, 1))]
            return [ind + "print(%s)" % self.expr(STR, sc, 1)]
        if c == 6:
            return [ind + "print(%s)" % ", ".join(self.expr(self.rand_type(1), sc, 1) for _ in range(r.randint(1, 3)))]
        if c == 7:
            cond = self.wrap_cond(self.expr(BOOL, sc, 1))
            a = self.stmts(sc.child(), r.randint(1, 2), ind + "    ", d + 1)
            out = [ind + "if %s {" % cond] + a
            if r.random() < 0.6:
                out += [ind + "} else {"] + self.stmts(sc.child(), r.randint(1, 2), ind + "    ", d + 1)
            return out + [ind + "}"]
        if c == 8:
            et = self.scalar() if r.random() < 0.7 else self.rand_type(1)
            v = self.p.fresh("it")
            inner = sc.child()
            inner.vars[v] = et
            inner.in_loop = True
            body = self.stmts(inner, r.randint(1, 2), ind + "    ", d + 1)
            if r.random() < 0.3:
                body.append(ind + "    if %s { %s }" % (self.expr(BOOL, inner, 2), r.choice(["break", "continue"])))
            return [ind + "for %s in %s {" % (v, self.wrap_cond(self.expr(List(et), sc, 1)))] + body + [ind + "}"]
        if c == 9:
            v = self.p.fresh("i")
            inner = sc.child()
            inner.vars[v] = INT
            inner.in_loop = True
            rng = "0..%s" % self.paren(self.expr(INT, sc, 2)) if r.random() < 0.5 else "1..=%d" % r.randint(1, 4)
            return [ind + "for %s in %s {" % (v, rng)] + self.stmts(inner, r.randint(1, 2), ind + "    ", d + 1) + [ind + "}"]
        if c == 10:
            vt = self.scalar()
            k, v = self.p.fresh("k"), self.p.fresh("val")
            inner = sc.child()
            inner.vars[k] = STR
            inner.vars[v] = vt
            inner.in_loop = True
            if r.random() < 0.3:
                # One name over a map: its keys.
                del inner.vars[v]
                return [ind + "for %s in %s {" % (k, self.wrap_cond(self.expr(Map(vt), sc, 1)))] + \
                    self.stmts(inner, 1, ind + "    ", d + 1) + [ind + "}"]
            return [ind + "for (%s, %s) in %s {" % (k, v, self.wrap_cond(self.expr(Map(vt), sc, 1)))] + \
                self.stmts(inner, 1, ind + "    ", d + 1) + [ind + "}"]
        if c == 11:
            lists = [(n, t) for n, t in sc.vars.items() if t[0] == "List"]
            if lists:
                n, t = r.choice(lists)
                return [ind + "%s.push(%s)" % (n, self.expr(t[1], sc, 1))]
            maps = [(n, t) for n, t in sc.vars.items() if t[0] == "Map"]
            if maps:
                n, t = r.choice(maps)
                return [ind + "%s[%s] = %s" % (n, self.expr(STR, sc, 2), self.expr(t[1], sc, 1))]
            return [ind + "print(%s)" % self.expr(INT, sc, 1)]
        if c == 12:
            structs = [(n, t) for n, t in sc.vars.items() if t[0] == "Struct"]
            if structs:
                n, t = r.choice(structs)
                fields = [f for f in self.p.structs[t[1]]["fields"] if not f[0].startswith("_")]
                if fields:
                    fname, ft, _ = r.choice(fields)
                    return [ind + "%s.%s = %s" % (n, fname, self.expr(ft, sc, 1))]
            return [ind + "print(%s)" % self.expr(BOOL, sc, 1)]
        if c == 13:
            a, b = self.p.fresh("a"), self.p.fresh("b")
            ta, tb = self.scalar(), self.scalar()
            e = self.expr(("Tup", ta, tb), sc, 1)
            sc.vars[a] = ta
            sc.vars[b] = tb
            return [ind + "let (%s, %s) = %s" % (a, b, e)]
        if c == 14:
            t = self.scalar()
            v = self.p.fresh("lp")
            inner = sc.child()
            inner.in_loop = False  # a bare `break` would make the loop's value nullable
            body = self.stmts(inner, 1, ind + "    ", d + 1)
            sc.vars[v] = t
            return [ind + "let %s: %s = loop {" % (v, fmt(t))] + body + [ind + "    break %s" % self.expr(t, inner, 2), ind + "}"]
        if c == 15:
            # A nested named function capturing the enclosing locals (a closure).
            fname = self.p.fresh("inner")
            pt, rt = self.scalar(), self.scalar()
            pn = self.p.fresh("q")
            inner = sc.child()
            inner.vars[pn] = pt
            inner.is_async = False
            inner.ret = rt
            body = ["%s    return %s" % (ind, self.expr(rt, inner, 1))]
            v = self.p.fresh("c")
            arg = self.expr(pt, sc, 1)
            sc.vars[v] = rt
            return [ind + "fn %s(%s: %s) -> %s {" % (fname, pn, fmt(pt), fmt(rt))] + body + [ind + "}",
                                                                                        ind + "let %s = %s(%s)" % (v, fname, arg)]
        if c == 16:
            ft = ("Fn", self.scalar(), self.scalar())
            v = self.p.fresh("f")
            lam = self.lambda_(ft, sc, 1)
            sc.vars[v] = ft
            out = [ind + "let %s: %s = %s" % (v, fmt(ft), lam)]
            rv = self.p.fresh("r")
            out.append(ind + "let %s = %s(%s)" % (rv, v, self.expr(ft[1], sc, 2)))
            sc.vars[rv] = ft[2]
            return out
        if c == 17 and sc.ret is not None and sc.ret[0] == "Res" and sc.err_type == "Str":
            vt = self.scalar()
            v = self.p.fresh("t")
            e = self.expr(Res(vt), sc, 1)
            sc.vars[v] = vt
            return [ind + "let %s = %s?" % (v, self.paren(e) if e.startswith(("Ok(", "Err(")) else e)]
        if c == 18 and sc.is_async and not sc.in_lambda:
            return [ind + "sleep(%d).await" % r.randint(0, 3)]
        if c == 19 and sc.in_loop:
            return [ind + "if %s {" % self.wrap_cond(self.expr(BOOL, sc, 2)), ind + "    " + r.choice(["break", "continue"]), ind + "}"]
        # A match statement with blocks in its arms.
        t = self.scalar()
        lines = [ind + "match %s {" % self.wrap_cond(self.expr(Res(t), sc, 1))]
        v = self.p.fresh("ok")
        inner = sc.child()
        inner.vars[v] = t
        lines.append(ind + "    Ok(%s) => {" % v)
        lines += self.stmts(inner, 1, ind + "        ", d + 1)
        lines.append(ind + "    }")
        lines.append(ind + "    Err(_) => print(%s)" % self.expr(STR, sc, 2))
        lines.append(ind + "}")
        return lines

    # ---- declarations ------------------------------------------------------------------------

    def struct_decl(self, name=None, allow_methods=True):
        r = self.r
        name = name or self.p.fresh("Rec")
        fields = []
        for i in range(r.randint(1, 4)):
            ft = self.rand_type(1, structs=False) if r.random() < 0.3 else self.scalar()
            if r.random() < 0.2:
                ft = Opt(self.scalar())
            default = None
            if r.random() < 0.4:
                default = self.leaf(ft, Scope())
            fields.append(("f%d_%s" % (i, name.lower()), ft, default))
        s = {"fields": fields, "methods": []}
        self.p.structs[name] = s
        lines = ["type %s {" % name]
        for fname, ft, default in fields:
            lines.append("    %s: %s%s" % (fname, fmt(ft), " = " + default if default is not None else ""))
        if allow_methods:
            for _ in range(r.randint(0, 2)):
                mname = self.p.fresh("m")
                rt = self.scalar()
                sc = Scope(ret=rt)
                for fname, ft, _ in fields:
                    sc.vars[fname] = ft
                params = []
                for _ in range(r.randint(0, 2)):
                    pn = self.p.fresh("arg")
                    pt = self.scalar()
                    sc.vars[pn] = pt
                    params.append((pn, pt))
                body = self.expr(rt, sc, 1)
                lines.append("    fn %s(%s) -> %s => %s" % (mname, ", ".join("%s: %s" % (n, fmt(t)) for n, t in params), fmt(rt), body))
                s["methods"].append({"name": mname, "params": [t for _, t in params], "ret": rt, "static": False})
            if r.random() < 0.4:
                mname = self.p.fresh("make")
                sc = Scope(ret=("Struct", name))
                body = self.struct_lit(name, sc, 2)
                lines.append("    static fn %s() -> %s => %s" % (mname, name, body))
                s["methods"].append({"name": mname, "params": [], "ret": ("Struct", name), "static": True})
        lines.append("}")
        return lines

    def method_calls(self, sc):
        """Expressions calling the methods of a struct value in scope (for statements)."""
        out = []
        for n, t in sc.vars.items():
            if t[0] == "Struct":
                for m in self.p.structs[t[1]]["methods"]:
                    if not m["static"]:
                        out.append(("%s.%s(%s)" % (n, m["name"], ", ".join(self.expr(pt, sc, 2) for pt in m["params"])), m["ret"]))
        return out

    def func_decl(self, is_async=None, name=None, ret=None):
        r = self.r
        name = name or self.p.fresh("fn_")
        is_async = r.random() < 0.25 if is_async is None else is_async
        if ret is None:
            ret = self.rand_type(1) if r.random() < 0.8 else Res(self.scalar())
        sc = Scope(ret=ret, is_async=is_async)
        params, defaults = [], []
        for i in range(r.randint(0, 3)):
            pn = self.p.fresh("arg")
            pt = self.rand_type(1)
            sc.vars[pn] = pt
            default = None
            if (defaults and defaults[-1] is not None) or r.random() < 0.2:
                if pt in SCALARS:
                    default = self.lit(pt)
                else:
                    default = None
            if defaults and defaults[-1] is not None and default is None:
                pt = INT
                sc.vars[pn] = pt
                default = "1"
            params.append((pn, pt, default))
            defaults.append(default)
        body = self.stmts(sc, r.randint(1, 5), "    ")
        calls = self.method_calls(sc)
        if calls and r.random() < 0.5:
            e, _ = r.choice(calls)
            body.append("    print(%s)" % e)
        if r.random() < 0.2:
            body.append("    if %s {" % self.wrap_cond(self.expr(BOOL, sc, 1)))
            body.append("        return %s" % self.expr(ret, sc, 1))
            body.append("    }")
        body.append("    return %s" % self.expr(ret, sc, 1))
        sig = "%sfn %s(%s) -> %s {" % ("async " if is_async else "", name,
                                        ", ".join("%s: %s%s" % (n, fmt(t), " = " + dflt if dflt else "") for n, t, dflt in params),
                                        fmt(ret))
        self.p.funcs.append((name, [t for _, t, _ in params], ret, is_async, defaults))
        return [sig] + body + ["}"]

    def top_level(self, sc, n):
        """Top-level statements (they run at start-up; `.await` is allowed)."""
        return self.stmts(sc, n, "")
