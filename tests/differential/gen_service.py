"""Service half of the program generator: HTTP routes with every binding kind, middleware, CORS,
auth guards, ORM models and queries, WebSockets, jobs and commands, with bodies from gen_core.

Each `add_*` method appends top-level declarations to a ServiceProgram; names and paths are made
unique per program so any combination of sections is one valid program.
"""

from gen_core import (BOOL, FLOAT, INT, STR, SCALARS, CoreGen, List, Map, Opt, Res, Scope, WORDS, fmt)

PATH_TYPES = [INT, FLOAT, STR, BOOL]
VERBS = ["get", "post", "put", "patch", "delete"]


class ServiceProgram:
    def __init__(self, rng, prefix=""):
        self.r = rng
        # Paths start with the program's own prefix, so programs built together as modules of
        # one service never declare the same route.
        self.prefix = prefix
        self.singletons = set()     # declarations a program may hold once: server, auth, health
        self.g = CoreGen(rng)
        self.p = self.g.p
        self.lines = []
        self.paths = set()
        self.has_server = False
        self.user_type = None       # the @auth_provider's user type, once declared
        self.models = []            # ORM model descriptions
        self.body_types = []
        self.error_type = None
        self.consts = []
        self.middlewares = []       # (name, kind)
        self.background = []        # (name, [param types], is_async, ret)
        self.ws_paths = []
        self.db_url = None

    def emit(self, lines):
        self.lines.extend(lines)
        self.lines.append("")

    def unique_path(self, base):
        while True:
            p = "/%s%s%d" % (self.prefix, base, self.r.randint(0, 9999))
            if p not in self.paths:
                self.paths.add(p)
                return p

    # ---- shared declarations -----------------------------------------------------------------

    def ensure_error_type(self):
        if not self.error_type:
            self.error_type = self.p.fresh("ApiError")
            self.p.structs[self.error_type] = {"fields": [("status", INT, None), ("message", STR, None)], "methods": []}
            self.emit(["type %s {" % self.error_type, "    status: Int", "    message: Str", "}"])
        return self.error_type

    def add_body_type(self):
        r = self.r
        name = self.p.fresh("Body")
        fields = []
        lines = ["type %s {" % name]
        for i in range(r.randint(1, 4)):
            t = r.choice([INT, FLOAT, STR, BOOL, List(STR), List(INT), Opt(STR), Opt(INT), Map(INT)])
            fname = "%s_%d" % (r.choice(["name", "count", "note", "tags", "score", "flag"]), i)
            default = None
            if r.random() < 0.3 and t[0] not in ("Opt",):
                default = self.g.leaf(t, Scope())
            deco = ""
            if default is not None and r.random() < 0.3:
                deco = "@hidden\n    "
            lines.append("    %s%s: %s%s" % (deco, fname, fmt(t), " = " + default if default else ""))
            fields.append((fname, t, default))
        lines.append("}")
        self.p.structs[name] = {"fields": fields, "methods": []}
        self.body_types.append(name)
        self.emit(lines)
        return name

    def add_const(self):
        name = "STATUS_%d" % len(self.consts)
        code = self.r.choice([201, 202, 404, 409, 418, 422, 503])
        self.consts.append((name, code))
        self.emit(["let %s = %d" % (name, code)])

    def add_middleware(self):
        r = self.r
        kind = r.choice(["pre", "post", "wrap", "pre_async", "post_async"])
        name = self.p.fresh("mw_")
        if kind.startswith("pre"):
            asy = "async " if kind.endswith("async") else ""
            body = ["%sfn %s(req: Request) {" % (asy, name)]
            if asy:
                body.append("    sleep(1).await")
            body += ['    if req.path == "%s" {' % r.choice(["/blocked", "/nope"]),
                     '        return %d {"error": "%s"}' % (r.choice([401, 403, 429]), r.choice(WORDS)),
                     "    }", '    print(req.method, req.headers.get("x-id"))', "}"]
        elif kind.startswith("post"):
            asy = "async " if kind.endswith("async") else ""
            body = ["%sfn %s(req: Request, resp: Response) -> Response {" % (asy, name),
                    '    resp.headers["x-%s"] = req.method' % name.replace("_", "-"),
                    "    return resp", "}"]
        else:
            body = ["fn %s(req: Request, next: Fn() -> Response) -> Response {" % name,
                    "    let resp = next()", "    print(resp.status)", "    return resp", "}"]
        self.middlewares.append((name, kind))
        self.emit(body)

    def cors_expr(self):
        r = self.r
        if r.random() < 0.3:
            return "cors()"
        opts = []
        origin = r.choice(['"*"', '"https://a.example"', '["https://a.example", "https://b.example"]', '"echo"'])
        opts.append('"allow_origin": %s' % origin)
        if r.random() < 0.5:
            opts.append('"allow_methods": ["GET", "POST"]')
        if r.random() < 0.5:
            opts.append('"allow_headers": ["content-type", "x-token"]')
        if r.random() < 0.5:
            opts.append('"max_age": %d' % r.randint(1, 900))
        return "cors({%s})" % ", ".join(opts)

    # ---- routes ------------------------------------------------------------------------------

    def route_return(self, sc, ret_kind, ret_t):
        """The final statement(s) of a handler for its return kind."""
        r = self.r
        g = self.g
        out = []
        if r.random() < 0.35:
            cond = g.wrap_cond(g.expr(BOOL, sc, 1))
            if self.consts and r.random() < 0.5:
                code = r.choice(self.consts)[0]
            else:
                code = str(r.choice([400, 404, 409, 422, 201, 204]))
            out += ["    if %s {" % cond, '        return %s {"error": "%s"}' % (code, r.choice(WORDS)), "    }"]
        if ret_kind == "plain":
            out.append("    return %s" % g.expr(ret_t, sc, 1))
        elif ret_kind == "status":
            # `return 202 [1]` and `return 202 (x)` parse as indexing and calling the status (a
            # reported parser limit): such bodies go through a variable.
            e = g.expr(ret_t, sc, 2)
            if e.startswith(("(", "[")):
                v = self.p.fresh("out")
                out.append("    let %s = %s" % (v, e))
                e = v
            out.append("    return %d %s" % (r.choice([200, 201, 202]), e))
        elif ret_kind == "result":
            et = None if sc.err_type == "Str" else sc.err_type
            out.append("    if %s {" % g.wrap_cond(g.expr(BOOL, sc, 1)))
            if et:
                out.append("        return Err(%s { status: %d, message: %s })" % (et, r.choice([400, 410, 422]), g.expr(STR, sc, 2)))
            else:
                out.append("        return Err(%s)" % g.expr(STR, sc, 2))
            out.append("    }")
            out.append("    return Ok(%s)" % g.expr(ret_t, sc, 1))
            return out, ("Result<%s, %s>" % (fmt(ret_t), et) if et else "Result<%s>" % fmt(ret_t))
        elif ret_kind == "response":
            out.append('    return Response { content_type: "text/plain", body: %s, headers: {"x-n": "1"} }' % g.expr(STR, sc, 2))
            return out, "Response"
        elif ret_kind == "none":
            out.append("    return %s" % g.expr(ret_t, sc, 1))
            return out, None
        return out, fmt(ret_t)

    def add_route(self, guard=None):
        r = self.r
        g = self.g
        verb = r.choice(VERBS)
        base = self.unique_path(r.choice(["items", "users", "orders", "things"]))
        params = []          # (name, type, default)
        segs = [base]
        for i in range(r.randint(0, 2)):
            pn = self.p.fresh("id")
            pt = r.choice(PATH_TYPES)
            segs.append("{%s}" % pn)
            params.append((pn, pt, None))
        path = "/".join(segs)
        query = []
        for i in range(r.randint(0, 2)):
            qn = self.p.fresh("q")
            kind = r.random()
            if kind < 0.4:
                params.append((qn, Opt(r.choice(PATH_TYPES)), None))
            elif kind < 0.7:
                pt = r.choice(PATH_TYPES)
                params.append((qn, pt, g.lit(pt)))
            else:
                params.append((qn, r.choice(PATH_TYPES), None))
            query.append("%s={%s}" % (qn, qn))
        if query:
            path += "?" + "&".join(query)
        decos = ['@%s("%s")' % (verb, path)]
        if r.random() < 0.3:
            hname = r.choice(["X-Trace-Id", "X-Client", "Accept-Language"])
            if r.random() < 0.5:
                into = self.p.fresh("hdr")
                decos.append('@header(name="%s", into="%s")' % (hname, into))
                params.append((into, r.choice([STR, Opt(STR)]), None))
            else:
                decos.append('@header(name="%s")' % hname)
                params.append((hname.lower().replace("-", "_"), r.choice([STR, Opt(STR)]), None))
        if r.random() < 0.2:
            params.append((self.p.fresh("req"), ("Struct", "Request"), None))
        if verb in ("post", "put", "patch") and r.random() < 0.8:
            bt = r.random()
            if self.body_types and bt < 0.6:
                params.append((self.p.fresh("body"), ("Struct", r.choice(self.body_types)), None))
            elif bt < 0.75:
                params.append((self.p.fresh("body"), ("MapAny",), None))
            elif bt < 0.9:
                params.append((self.p.fresh("body"), List(STR), None))
            else:
                params.append((self.p.fresh("fields"), Map(STR), None))
        if guard:
            decos.append(guard)
            if self.user_type and (guard == "@authenticated" or r.random() < 0.5):
                params.append((self.p.fresh("user"), ("Struct", self.user_type), None))
        is_async = r.random() < 0.35
        for name, kind in self.middlewares:
            # A synchronous around middleware cannot wrap an async handler (E0507).
            if r.random() < 0.3 and not (kind == "wrap" and is_async):
                decos.append("@middleware(%s)" % name)
        if r.random() < 0.2:
            decos.append("@middleware(%s)" % self.cors_expr())
        if r.random() < 0.1:
            decos.append('@trace(name="%s")' % self.p.fresh("span"))
        if r.random() < 0.1:
            decos.append('@metric(name="%s")' % self.p.fresh("metric"))
        if r.random() < 0.08:
            decos.append('@flag("%s")' % self.p.fresh("feature"))
        # Required parameters first (declaration order does not matter to binding, only defaults do).
        params.sort(key=lambda p: p[2] is not None)
        sc = Scope(ret=None, is_async=is_async)
        for n, t, _ in params:
            if t == ("MapAny",):
                continue
            if t[0] == "Struct" and t[1] == "Request":
                continue
            sc.vars[n] = t
        ret_kind = r.choice(["plain", "plain", "status", "result", "response", "none"])
        ret_t = r.choice([STR, INT, List(INT), Map(STR), BOOL] + [("Struct", b) for b in self.body_types])
        sc.ret = Res(ret_t) if ret_kind == "result" else ret_t
        if ret_kind == "result" and r.random() < 0.5:
            sc.err_type = self.ensure_error_type()
        body = g.stmts(sc, r.randint(0, 3), "    ")
        for n, t, _ in params:
            if t[0] == "Struct" and t[1] == "Request":
                body.append("    print(%s.method, %s.path, len(%s.headers))" % (n, n, n))
            if t == ("MapAny",):
                body.append("    print(len(%s))" % n)
        tail, ann = self.route_return(sc, ret_kind, ret_t)
        body += tail
        name = self.p.fresh("h_")
        plist = []
        for n, t, dflt in params:
            ts = "Map<Str, Any>" if t == ("MapAny",) else fmt(t)
            plist.append("%s: %s%s" % (n, ts, " = " + dflt if dflt else ""))
        sig = "%sfn %s(%s)%s {" % ("async " if is_async else "", name, ", ".join(plist), " -> " + ann if ann else "")
        r.shuffle(decos[1:]) if False else None
        self.emit(decos + [sig] + body + ["}"])

    def add_server(self):
        if self.has_server:
            return
        self.has_server = True
        self.singletons.add("server")
        r = self.r
        args = []
        if r.random() < 0.5:
            args.append(str(r.randint(1024, 65000)))
            if r.random() < 0.5:
                args.append('"127.0.0.1"')
        else:
            args.append("port=%d" % r.randint(1024, 65000))
            if r.random() < 0.5:
                args.append('host="0.0.0.0"')
        for k, v in [("docs", r.choice(["true", "false"])), ("api_version", '"1.%d.0"' % r.randint(0, 9)),
                     ("shutdown_timeout_secs", str(r.randint(1, 30))), ("ws_heartbeat_secs", str(r.randint(0, 60))),
                     ("observability", r.choice(["true", "false"])), ("prometheus", r.choice(["true", "false"]))]:
            if r.random() < 0.3:
                args.append("%s=%s" % (k, v))
        self.emit(["@server(%s)" % ", ".join(args), "fn main() => 0"])

    def add_health(self):
        r = self.r
        if r.random() < 0.2:
            self.singletons.add("healthz")
            self.emit(["@healthz", "fn %s() -> Bool => %s" % (self.p.fresh("healthy"), self.g.expr(BOOL, Scope(), 2))])
        if r.random() < 0.15:
            self.singletons.add("readyz")
            self.emit(["@readyz", "fn %s() -> Result<Bool> {" % self.p.fresh("ready"), "    return Ok(true)", "}"])

    # ---- auth --------------------------------------------------------------------------------

    def add_auth(self):
        r = self.r
        u = self.p.fresh("Account")
        self.user_type = u
        self.singletons.add("auth_provider")
        self.p.structs[u] = {"fields": [("id", INT, None), ("name", STR, None), ("role", STR, None)], "methods": []}
        self.emit(["type %s {" % u, "    id: Int", "    name: Str", "    role: Str", "}"])
        secret = self.p.fresh("SECRET")
        self.emit(['let %s = env_or("JWT_SECRET", "dev-secret")' % secret])
        asy = "async " if r.random() < 0.3 else ""
        alg = r.choice(["", ', "HS256"', ', "HS512"'])
        self.emit(["@auth_provider",
                   "%sfn %s(headers: Map<Str, Str>) -> Result<%s> {" % (asy, self.p.fresh("current_user"), u),
                   '    let header = headers.get("authorization")?',
                   '    if not header.starts_with("Bearer ") {',
                   '        return Err("expected a bearer token")',
                   "    }",
                   "    let claims = jwt.decode(header.right(header.len() - 7), %s%s)?" % (secret, alg),
                   "    return Ok(%s {" % u,
                   '        id: claims["sub"].as_int()?,',
                   '        name: claims["name"].as_str()?,',
                   '        role: claims["role"].as_str()?,',
                   "    })", "}"])
        login = self.p.fresh("login")
        self.emit(['@post("%s")' % self.unique_path("login"),
                   "fn %s(body: Map<Str, Str>) {" % login,
                   '    let name = body.get("name")?',
                   '    let stored = hash.password("pw-{name}")',
                   '    if hash.verify(body.get("password")?, stored) {',
                   '        let claims = {"sub": 1, "name": name, "role": "%s", "exp": 4102444800}' % r.choice(["admin", "user", "editor"]),
                   "        return {\"token\": jwt.encode(claims, %s%s)}" % (secret, alg),
                   "    }",
                   '    return 401 {"error": "wrong name or password"}', "}"])
        for _ in range(r.randint(1, 3)):
            guard = r.choice(["@authenticated", "@admin", '@requires("editor")', '@requires("editor", "admin")'])
            self.add_route(guard=guard)

    # ---- ORM ---------------------------------------------------------------------------------

    def add_models(self):
        r = self.r
        # Model and table names carry the program's prefix: in a batch, two modules' models of
        # one name get mixed up by the ORM (tests/differential/known/orm_model_name_in_two_modules.fitz).
        own = self.prefix.strip("/")
        tag = own + self.p.fresh("t")
        child, parent, extra = (self.p.fresh(n) + own.upper() for n in ("Post", "Author", "Profile"))
        on_delete = r.choice([None, "cascade", "set_null", "restrict"])
        fk_nullable = on_delete == "set_null" or r.random() < 0.2
        fk_t = "Int?" if fk_nullable else "Int"
        fk_default = "null" if fk_nullable else "0"
        bt_opts = ', on_delete="%s"' % on_delete if on_delete and r.random() < 0.5 else ""
        if on_delete and r.random() < 0.3:
            bt_opts += ', on_update="cascade"'
        child_lines = ['@table("%s_posts")' % tag, "type %s {" % child, "    @primary id: Int = 0",
                       '    @belongs_to("%s"%s) author_id: %s = %s' % (parent, bt_opts, fk_t, fk_default),
                       '    title: Str = ""', "    score: Float = 0.0", "    published: Bool = false"]
        if r.random() < 0.5:
            child_lines.append("    tags: List<Str> = []")
        if r.random() < 0.5:
            child_lines.append('    @db_default("NOW()") created_at: Str = ""')
        with_parent_field = r.random() < 0.5
        if with_parent_field:
            child_lines.append("    author: %s? = null" % parent)
        child_lines.append("}")
        profile_lines = ['@table("%s_profiles")' % tag, "type %s {" % extra, "    @primary id: Int = 0",
                         '    @belongs_to("%s") author_id: Int = 0' % parent, '    bio: Str = ""', "}"]
        hm_opts = ""
        if on_delete and not bt_opts and r.random() < 0.7:
            hm_opts = ', on_delete="%s"' % on_delete
        elif on_delete and bt_opts and r.random() < 0.3:
            hm_opts = ', on_delete="%s"' % on_delete  # both sides agree
        parent_lines = ['@table("%s%s_authors")' % (r.choice(["", "app."]), tag), "type %s {" % parent,
                        "    @primary id: Int = 0",
                        '    %sname: Str = ""' % ('@column(name="full_name") ' if r.random() < 0.3 else ""),
                        '    @unique email: Str = ""', "    age: Int = 0", "    nick: Str? = null",
                        "    meta: Map<Str, Any> = {}",
                        '    @has_many("%s", via="author_id"%s) posts: List<%s> = []' % (child, hm_opts, child)]
        with_profile = r.random() < 0.6
        if with_profile:
            parent_lines.append('    @has_one("%s", via="author_id") profile: %s? = null' % (extra, extra))
        parent_lines.append("}")
        self.emit(child_lines)
        if with_profile:
            self.emit(profile_lines)
        self.emit(parent_lines)
        m = {"child": child, "parent": parent, "profile": extra if with_profile else None,
             "parent_field": with_parent_field, "fk_nullable": fk_nullable}
        self.models.append(m)
        for name in (child, parent):
            self.p.structs[name] = {"fields": [("id", INT, "0")], "methods": []}
        if not self.db_url:
            self.db_url = self.p.fresh("DB_URL")
            self.emit(['let %s = env_or("DATABASE_URL", "postgres://fitz@127.0.0.1:5432/fitz")' % self.db_url])
        return m

    def orm_query_lines(self, m, ind, idv, sv):
        """Statements using the query API on model `m` with `conn` in scope; Int `idv`, Str `sv`."""
        r = self.r
        c, p = m["child"], m["parent"]
        v = lambda: self.p.fresh("q")
        opts = [
            "let %s = %s.where(fn(a) => a.id == %s).first(conn).await?" % (v(), p, idv),
            "let %s = %s.where(fn(a) => a.age >= %d and a.name != %s).order_by(fn(a) => -a.age).limit(%d).all(conn).await?" % (v(), p, r.randint(0, 99), sv, r.randint(1, 50)),
            "let %s = %s.where(fn(x) => x.author_id == %s).order_by(fn(x) => x.id).offset(%s).limit(10).all(conn).await?" % (v(), c, idv, idv),
            "let %s = %s.count(conn).await?" % (v(), p),
            "let %s = %s.where(fn(x) => x.published).count(conn).await?" % (v(), c),
            "let %s = %s.order_by(fn(a) => a.id).preload(\"posts\").all(conn).await?" % (v(), p),
            "let %s = %s.where(fn(a) => a.name.starts_with(%s)).preload(\"posts\").first(conn).await?" % (v(), p, sv),
            "let %s = %s.where(fn(x) => x.id == %s).update(conn, {\"title\": %s, \"score\": 1.5}).await?" % (v(), c, idv, sv),
            "let %s = %s.where(fn(x) => x.score < 0.5).delete(conn).await?" % (v(), c),
            "let %s = %s.where(fn(_) => true).delete(conn).await?" % (v(), c),
            "let %s = %s.insert(conn, %s { name: %s, email: \"{%s}@example.org\" }).await?" % (v(), p, p, sv, sv),
            "let %s = %s.avg(fn(x) => x.score, conn).await?" % (v(), c),
            "let %s = %s.where(fn(x) => x.author_id == %s).sum(fn(x) => x.score * 2, conn).await?" % (v(), c, idv),
            "let %s = %s.group_by(fn(x) => x.author_id).count(conn).await?" % (v(), c),
            "let %s = %s.where(fn(a) => a.id.is_in([1, 2, %s]) or a.nick.is_null()).all(conn).await?" % (v(), p, idv),
            "let %s = %s.where(fn(a) => a.meta.has_key(\"plan\") and a.email.ilike(%s)).all(conn).await?" % (v(), p, sv),
            "let %s = %s.where(fn(a) => a.age.between(18, 65)).max(fn(a) => a.age, conn).await?" % (v(), p),
        ]
        if m["profile"]:
            opts.append("let %s = %s.order_by(fn(a) => a.id).preload(\"profile\").preload(\"posts\").all(conn).await?" % (v(), p))
        if m["parent_field"]:
            opts.append("let %s = %s.order_by(fn(x) => x.id).preload(\"author\").all(conn).await?" % (v(), c))
        out = [ind + l for l in r.sample(opts, r.randint(1, 4))]
        if r.random() < 0.5:
            a, lst = self.p.fresh("row"), self.p.fresh("kids")
            out += [ind + "let %s = %s.where(fn(a) => a.id == %s).first(conn).await?" % (a, p, idv),
                    ind + "let %s = %s.posts(conn).await?" % (lst, a),
                    ind + "print(len(%s), %s.posts().where(fn(x) => x.score > 1.0).count(conn).await?)" % (lst, a)]
            if m["profile"]:
                out.append(ind + "print(%s.profile(conn).await? == null)" % a)
        if r.random() < 0.3:
            qb = self.p.fresh("qb")
            out += [ind + "let %s = %s.where(fn(x) => x.published)" % (qb, c),
                    ind + "let %s = %s.order_by(fn(x) => x.id).all(conn).await?" % (self.p.fresh("rows"), qb)]
        if r.random() < 0.3:
            post = self.p.fresh("post")
            out += [ind + "let %s = %s.where(fn(x) => x.id == %s).first(conn).await?" % (post, c, idv),
                    ind + "let %s = %s.author_id(conn).await?" % (self.p.fresh("owner"), post)]
        return out

    def add_orm_routes(self, m):
        r = self.r
        p = m["parent"]
        path = self.unique_path("authors")
        idv = self.p.fresh("id")
        name = self.p.fresh("orm_")
        body = ["    let conn = db.connect(%s).await?" % self.db_url]
        body += self.orm_query_lines(m, "    ", idv, '"%s"' % r.choice(WORDS))
        ret_kind = r.random()
        if ret_kind < 0.4:
            sig = '@get("%s/{%s}")\nasync fn %s(%s: Int) -> Result<%s> {' % (path, idv, name, idv, p)
            body.append("    return %s.where(fn(a) => a.id == %s).first(conn).await" % (p, idv))
        elif ret_kind < 0.7:
            sig = '@get("%s/{%s}")\nasync fn %s(%s: Int) {' % (path, idv, name, idv)
            body += ["    return match %s.where(fn(a) => a.id == %s).first(conn).await {" % (p, idv),
                     "        Ok(a) => Ok(a)",
                     '        Err(_) => return 404 {"error": "not found"}', "    }"]
        else:
            bn = self.p.fresh("body")
            sig = '@post("%s/{%s}")\nasync fn %s(%s: Int, %s: %s) {' % (path, idv, name, idv, bn, p)
            body += ["    return match %s.insert(conn, %s).await {" % (p, bn),
                     "        Ok(a) => return 201 a",
                     '        Err(_) => return 409 {"error": "exists"}', "    }"]
        self.emit(sig.split("\n") + body + ["}"])

    def add_orm_function(self, m):
        name = self.p.fresh("orm_task")
        idv, sv = self.p.fresh("id"), self.p.fresh("s")
        body = ["async fn %s(conn: DbConn, %s: Int, %s: Str) -> Result<Int> {" % (name, idv, sv)]
        body += self.orm_query_lines(m, "    ", idv, sv)
        body += ["    return Ok(%s)" % idv, "}"]
        self.emit(body)

    # ---- WebSockets --------------------------------------------------------------------------

    def add_ws(self):
        r = self.r
        msg = self.p.fresh("Msg")
        self.p.structs[msg] = {"fields": [("text", STR, None), ("n", INT, "0")], "methods": []}
        self.emit(["type %s {" % msg, "    text: Str", "    n: Int = 0", "}"])
        reply = self.p.fresh("Reply")
        self.p.structs[reply] = {"fields": [("echo", STR, None), ("len", INT, None)], "methods": []}
        self.emit(["type %s {" % reply, "    echo: Str", "    len: Int", "}"])
        for _ in range(r.randint(1, 3)):
            path = self.unique_path("ws")
            self.ws_paths.append((path, msg))
            name = self.p.fresh("ws_")
            kind = r.choice(["typed", "in_out", "any", "bytes", "broadcast"])
            decos = ['@ws("%s")' % path]
            extra = ""
            if self.user_type and r.random() < 0.4:
                decos.insert(0, "@authenticated")
                extra = ", %s: %s" % (self.p.fresh("user"), self.user_type)
            pre = [n for n, k in self.middlewares if k.startswith("pre")]
            if pre and r.random() < 0.3:
                decos.insert(0, "@middleware(%s)" % r.choice(pre))
            recv = "conn.recv().await" if r.random() < 0.5 else "conn.recv()"
            if kind == "typed":
                conn_t = "WsConn<%s>" % msg
                arm = "Ok(m) => conn.send(m).await"
            elif kind == "in_out":
                conn_t = "WsConn<%s, %s>" % (msg, reply)
                arm = "Ok(m) => conn.send(%s { echo: m.text.upper(), len: len(m.text) + m.n }).await" % reply
            elif kind == "any":
                conn_t = "WsConn<%s, Any>" % msg
                arm = 'Ok(m) => conn.send({"got": m.text}).await'
            elif kind == "bytes":
                conn_t = "WsConn<Bytes>"
                arm = "Ok(b) => conn.send(b).await"
            else:
                conn_t = "WsConn<%s>" % msg
                arm = "Ok(m) => conn.broadcast(m).await"
            self.emit(decos + ["async fn %s(conn: %s%s) -> Null {" % (name, conn_t, extra),
                               "    loop {",
                               "        match %s {" % recv,
                               "            %s" % arm,
                               "            Err(e) => {",
                               '                if e == "connection closed" { break }',
                               "                conn.close().await",
                               "                break",
                               "            }",
                               "        }",
                               "    }",
                               "}"])
        path, msg = r.choice(self.ws_paths)
        n = self.p.fresh("announce")
        self.emit(['@post("%s")' % self.unique_path("announce"),
                   "fn %s(body: %s) -> Map<Str, Bool> {" % (n, msg),
                   '    ws_broadcast("%s", body)' % path,
                   '    return {"ok": true}', "}"])

    # ---- jobs --------------------------------------------------------------------------------

    def retry_policy(self):
        r = self.r
        keys = []
        bare = r.random() < 0.5
        q = (lambda k: k) if bare else (lambda k: '"%s"' % k)
        if r.random() < 0.8:
            keys.append("%s: %d" % (q("max"), r.randint(0, 5)))
        if r.random() < 0.7:
            keys.append('%s: "%s"' % (q("backoff"), r.choice(["exponential", "linear", "constant"])))
        if r.random() < 0.5:
            keys.append("%s: %d" % (q("initial_secs"), r.randint(1, 10)))
        if r.random() < 0.4:
            keys.append("%s: %d" % (q("max_secs"), r.randint(10, 600)))
        return "retry={%s}" % ", ".join(keys)

    def add_jobs(self):
        r = self.r
        g = self.g
        for _ in range(r.randint(1, 2)):
            sched = r.choice(["0 3 * * *", "*/5 * * * *", "* * * * * *", "0 0 12 * * Mon-Fri", "30 2 1 * *"])
            args = ['"%s"' % sched]
            if r.random() < 0.4:
                args.append('tz="%s"' % r.choice(["UTC", "Europe/Madrid", "America/New_York"]))
            if r.random() < 0.5:
                args.append(self.retry_policy())
            is_result = r.random() < 0.5
            name = self.p.fresh("job_")
            asy = r.random() < 0.3
            sc = Scope(ret=Res(("Null",)) if is_result else None, is_async=asy)
            body = g.stmts(sc, r.randint(1, 3), "    ")
            if is_result:
                body.append('    return %s' % r.choice(['Ok(null)', 'Err("failed")']))
            self.emit(["@cron(%s)" % ", ".join(args),
                       "%sfn %s()%s {" % ("async " if asy else "", name, " -> Result<Null>" if is_result else "")] + body + ["}"])
        for _ in range(r.randint(1, 2)):
            name = self.p.fresh("bg_")
            pt = r.choice(SCALARS)
            pn = self.p.fresh("arg")
            asy = r.random() < 0.4
            ret = r.choice([None, INT, Res(("Null",))])
            sc = Scope(ret=ret, is_async=asy)
            sc.vars[pn] = pt
            body = g.stmts(sc, r.randint(1, 2), "    ")
            if ret == INT:
                body.append("    return %s" % g.expr(INT, sc, 1))
            elif ret is not None:
                body.append('    return Err("not yet")')
            deco = "@background"
            if r.random() < 0.4:
                deco += "(%s)" % self.retry_policy()
            sig = "%sfn %s(%s: %s)%s {" % ("async " if asy else "", name, pn, fmt(pt),
                                           "" if ret is None else " -> " + ("Int" if ret == INT else "Result<Null>"))
            self.emit([deco, sig] + body + ["}"])
            self.background.append((name, pt, ret))

    def spawn_lines(self, sc, ind):
        """Spawning background jobs from a context that may `.await` (or detached with `let _`)."""
        r = self.r
        out = []
        for name, pt, ret in self.background:
            call = "spawn(%s(%s))" % (name, self.g.expr(pt, sc, 2))
            if sc.is_async and r.random() < 0.5:
                v = self.p.fresh("job")
                out.append(ind + "let %s = %s" % (v, call))
                out.append(ind + "print(%s.await)" % v)
            else:
                out.append(ind + "let _ = %s" % call)
        return out

    def add_spawning_route(self):
        name = self.p.fresh("enqueue")
        sc = Scope(is_async=True)
        n = self.p.fresh("n")
        sc.vars[n] = INT
        self.emit(['@post("%s/{%s}")' % (self.unique_path("jobs"), n),
                   "async fn %s(%s: Int) {" % (name, n)] + self.spawn_lines(sc, "    ") +
                  ['    return 202 {"queued": %s}' % n, "}"])

    # ---- commands ----------------------------------------------------------------------------

    def add_commands(self):
        r = self.r
        # Only the entry module's commands count: a program with commands is built alone.
        self.singletons.add("commands")
        g = self.g
        used = set()
        for _ in range(r.randint(1, 3)):
            cname = r.choice(["greet", "sum", "resize", "check", "sync", "report", "clean"])
            if cname in used:
                continue
            used.add(cname)
            name = self.p.fresh("cmd_")
            params = []
            fn_decos = []
            sc = Scope(is_async=r.random() < 0.3)
            shorts = iter("abcdefgjkmnpqrstuvwxyz")
            for i in range(r.randint(0, 2)):
                pn = self.p.fresh("pos")
                pt = r.choice([STR, INT, FLOAT])
                deco = '@arg(help="the %s") ' % r.choice(WORDS) if r.random() < 0.4 else ""
                params.append("%s%s: %s" % (deco, pn, fmt(pt)))
                sc.vars[pn] = pt
                if not deco and r.random() < 0.3:
                    fn_decos.append('@arg("%s", help="positional %d")' % (pn, i))
            for i in range(r.randint(0, 3)):
                pn = self.p.fresh("opt")
                kind = r.choice(["bool", "int", "str", "float", "opt"])
                if kind == "bool":
                    pt, dflt = BOOL, r.choice(["false", "true"])
                elif kind == "int":
                    pt, dflt = INT, str(r.randint(0, 100))
                elif kind == "float":
                    pt, dflt = FLOAT, "1.5"
                elif kind == "str":
                    pt, dflt = STR, '"%s"' % r.choice(WORDS)
                else:
                    pt, dflt = Opt(INT), "null"
                deco = ""
                if r.random() < 0.5:
                    deco = '@flag(short="%s", help="the %s") ' % (next(shorts), r.choice(WORDS))
                params.append("%s%s: %s = %s" % (deco, pn, fmt(pt), dflt))
                sc.vars[pn] = pt
            if r.random() < 0.2:
                pn = self.p.fresh("rest")
                params.append("...%s: Int" % pn)
                sc.vars[pn] = List(INT)
            ret = r.choice([None, INT, Res(INT)])
            sc.ret = ret
            body = g.stmts(sc, r.randint(1, 3), "    ")
            if ret == INT:
                body.append("    return %s" % g.expr(INT, sc, 1))
            elif ret is not None:
                body.append("    if %s {" % g.wrap_cond(g.expr(BOOL, sc, 1)))
                body.append('        return Err("bad input")')
                body.append("    }")
                body.append("    return Ok(0)")
            desc = ', desc="%s"' % r.choice(WORDS) if r.random() < 0.7 else ""
            sig = "%sfn %s(%s)%s {" % ("async " if sc.is_async else "", name, ", ".join(params),
                                       "" if ret is None else " -> " + fmt(ret))
            self.emit(['@command("%s"%s)' % (cname, desc)] + fn_decos + [sig] + body + ["}"])
