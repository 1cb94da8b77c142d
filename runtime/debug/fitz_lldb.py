"""LLDB formatters that show the values of a Fitz program (built with `fitz build --debug`)
as Fitz writes them: Str as "text", List as [1, 2, 3], Map as {"k": 1}, nullables as the value
or null, Result as Ok(..)/Err(..), and instances of Fitz types as Name { field: value } with the
fields as children under their Fitz names.

Load with `command script import fitz_lldb.py` (`fitz debug` does this). The layouts read here
are those of the runtime headers fitz/str.h, list.h, map.h, result.h and ref.h.
"""

import lldb

MAX_CHILDREN = 256  # elements listed under a collection
MAX_SUMMARY = 8     # elements written into a collection's one-line summary
MAX_TEXT = 4096     # bytes of a string read from the process

ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "{": "\\{"}


def _read(process, address, size):
    if size == 0:
        return b""
    error = lldb.SBError()
    data = process.ReadMemory(address, size, error)
    return data if error.Success() else None


def _quote(raw, truncated):
    text = raw.decode("utf-8", errors="replace")
    body = "".join(ESCAPES.get(c, c if c.isprintable() else "\\u{%x}" % ord(c)) for c in text)
    return '"' + body + ('..."' if truncated else '"')


def str_text(valobj):
    """The bytes of a fitz::Str: 16 bytes, inline (mode 0) or pointer + word (modes 1, 2)."""
    value = valobj.GetNonSyntheticValue()
    address = value.GetLoadAddress()
    if address == lldb.LLDB_INVALID_ADDRESS:
        raw = value.GetData().uint8s
        raw = bytes(raw) if raw and len(raw) == 16 else None
    else:
        raw = _read(valobj.GetProcess(), address, 16)
    if raw is None:
        return None, False
    mode = raw[15] >> 6
    if mode == 0:
        size = 15 - raw[15]
        if size < 0:
            return None, False
        return raw[:size], False
    pointer = int.from_bytes(raw[0:8], "little")
    size = int.from_bytes(raw[8:16], "little") & ((1 << 56) - 1)
    text = _read(valobj.GetProcess(), pointer, min(size, MAX_TEXT))
    return text, size > MAX_TEXT


def str_summary(valobj, _dict=None):
    raw, truncated = str_text(valobj)
    return "<unreadable Str>" if raw is None else _quote(raw, truncated)


class LeafProvider:
    """A value shown whole by its summary (Str): no children, not its raw bytes."""

    def __init__(self, valobj, _dict=None):
        pass

    def update(self):
        return False

    def num_children(self):
        return 0

    def get_child_index(self, _name):
        return -1

    def get_child_at_index(self, _index):
        return None

    def has_children(self):
        return False


def _ref_target(ref):
    """The value a fitz::Ref<T> points at (its Block's `value`), or None when it is empty."""
    block = ref.GetChildMemberWithName("b_")
    if not block.IsValid() or block.GetValueAsUnsigned(0) == 0:
        return None
    target = block.Dereference().GetChildMemberWithName("value")
    return target if target.IsValid() else None


def _vector_items(vector):
    """Element values of a libstdc++ std::vector<T>."""
    impl = vector.GetNonSyntheticValue().GetChildMemberWithName("_M_impl")
    start = impl.GetChildMemberWithName("_M_start")
    finish = impl.GetChildMemberWithName("_M_finish")
    element = start.GetType().GetPointeeType()
    size = element.GetByteSize()
    if not start.IsValid() or size == 0:
        return [], 0
    first, last = start.GetValueAsUnsigned(0), finish.GetValueAsUnsigned(0)
    count = (last - first) // size if last >= first else 0
    return [(first + i * size, element) for i in range(min(count, MAX_CHILDREN))], count


def fitz_value(value):
    """A one-line Fitz rendering of any value of a Fitz program."""
    if not value.IsValid():
        return "?"
    name = value.GetType().GetUnqualifiedType().GetCanonicalType().GetName()
    if name == "bool":
        return "true" if value.GetValueAsUnsigned(0) else "false"
    if name.startswith("fitz::") or name.startswith("fz"):
        summary = value.GetSummary()
        if summary:
            return summary
    text = value.GetValue()
    if text is not None:
        return text
    return value.GetSummary() or value.GetTypeName()


class ListProvider:
    """fitz::List<T>: a Ref to a std::vector<T>; children [0], [1], ..."""

    def __init__(self, valobj, _dict=None):
        self.valobj = valobj
        self.items = []
        self.count = 0

    def update(self):
        self.items, self.count = [], 0
        vector = _ref_target(self.valobj.GetNonSyntheticValue().GetChildMemberWithName("p_"))
        if vector is not None:
            self.items, self.count = _vector_items(vector)
        return False

    def num_children(self):
        return len(self.items)

    def get_child_index(self, name):
        try:
            return int(name.strip("[]"))
        except ValueError:
            return -1

    def get_child_at_index(self, index):
        if not 0 <= index < len(self.items):
            return None
        address, element = self.items[index]
        return self.valobj.CreateValueFromAddress("[%d]" % index, address, element)

    def has_children(self):
        return True


class MapProvider:
    """fitz::Map<K, V>: a Ref to a MapImpl whose `entries` vector keeps insertion order; one
    child per entry, named after its key."""

    def __init__(self, valobj, _dict=None):
        self.valobj = valobj
        self.entries = []
        self.count = 0

    def update(self):
        self.entries, self.count = [], 0
        impl = _ref_target(self.valobj.GetNonSyntheticValue().GetChildMemberWithName("p_"))
        if impl is not None:
            self.entries, self.count = _vector_items(impl.GetChildMemberWithName("entries"))
        return False

    def _entry(self, index):
        address, element = self.entries[index]
        return self.valobj.CreateValueFromAddress("entry", address, element)

    def num_children(self):
        return len(self.entries)

    def get_child_index(self, name):
        for i in range(len(self.entries)):
            if "[%s]" % fitz_value(self._entry(i).GetChildMemberWithName("key")) == name:
                return i
        return -1

    def get_child_at_index(self, index):
        if not 0 <= index < len(self.entries):
            return None
        entry = self._entry(index)
        key = fitz_value(entry.GetChildMemberWithName("key"))
        value = entry.GetChildMemberWithName("value")
        return self.valobj.CreateValueFromAddress("[%s]" % key, value.GetLoadAddress(), value.GetType())

    def has_children(self):
        return True

    def pairs(self):
        for i in range(min(len(self.entries), MAX_SUMMARY)):
            entry = self._entry(i)
            yield fitz_value(entry.GetChildMemberWithName("key")), fitz_value(entry.GetChildMemberWithName("value"))


def _union_member(valobj, name):
    """`v_`/`e_` of Nullable and Result live in an anonymous union."""
    direct = valobj.GetChildMemberWithName(name)
    if direct.IsValid():
        return direct
    for i in range(valobj.GetNumChildren()):
        child = valobj.GetChildAtIndex(i)
        if not child.GetName():
            member = child.GetChildMemberWithName(name)
            if member.IsValid():
                return member
    return valobj.GetValueForExpressionPath("." + name)


class WrapperProvider:
    """fitz::Nullable<T> and fitz::Result<T, E>: the children of the value held (none for null)."""

    def __init__(self, valobj, _dict=None):
        self.valobj = valobj
        self.held = None

    def update(self):
        self.held = held_value(self.valobj)
        return False

    def num_children(self):
        return self.held.GetNumChildren() if self.held is not None else 0

    def get_child_index(self, name):
        return self.held.GetIndexOfChildWithName(name) if self.held is not None else -1

    def get_child_at_index(self, index):
        return self.held.GetChildAtIndex(index) if self.held is not None else None

    def has_children(self):
        return self.held is not None and self.held.MightHaveChildren()


def held_value(valobj):
    raw = valobj.GetNonSyntheticValue()
    flag = raw.GetChildMemberWithName("has_")
    if flag.IsValid():
        return _union_member(raw, "v_") if flag.GetValueAsUnsigned(0) else None
    ok = raw.GetChildMemberWithName("ok_")
    if ok.IsValid():
        return _union_member(raw, "v_" if ok.GetValueAsUnsigned(0) else "e_")
    return None


def nullable_summary(valobj, _dict=None):
    held = held_value(valobj)
    return "null" if held is None else fitz_value(held)


def result_summary(valobj, _dict=None):
    ok = valobj.GetNonSyntheticValue().GetChildMemberWithName("ok_").GetValueAsUnsigned(0)
    return "%s(%s)" % ("Ok" if ok else "Err", fitz_value(held_value(valobj)))


def list_summary(valobj, _dict=None):
    provider = ListProvider(valobj)
    provider.update()
    shown = [fitz_value(provider.get_child_at_index(i)) for i in range(min(provider.num_children(), MAX_SUMMARY))]
    if provider.count > len(shown):
        shown.append("... %d more" % (provider.count - len(shown)))
    return "[" + ", ".join(shown) + "]"


def map_summary(valobj, _dict=None):
    provider = MapProvider(valobj)
    provider.update()
    shown = ["%s: %s" % pair for pair in provider.pairs()]
    if provider.count > len(shown):
        shown.append("... %d more" % (provider.count - len(shown)))
    return "{" + ", ".join(shown) + "}"


def _type_name(struct_type):
    """`fz0::T_User` -> `User`."""
    name = struct_type.GetName().rsplit("::", 1)[-1]
    return name[2:] if name.startswith("T_") else name


class StructProvider:
    """fitz::Ref<fzN::T_Name>, an instance of a Fitz type: its fields, `fld_x` shown as `x`."""

    def __init__(self, valobj, _dict=None):
        self.valobj = valobj
        self.fields = []

    def update(self):
        self.fields = []
        target = _ref_target(self.valobj.GetNonSyntheticValue())
        if target is not None:
            for i in range(target.GetNumChildren()):
                child = target.GetChildAtIndex(i)
                name = child.GetName() or ""
                if name.startswith("fld_"):
                    self.fields.append((name[4:], child))
        return False

    def num_children(self):
        return len(self.fields)

    def get_child_index(self, name):
        for i, (field, _) in enumerate(self.fields):
            if field == name:
                return i
        return -1

    def get_child_at_index(self, index):
        if not 0 <= index < len(self.fields):
            return None
        name, child = self.fields[index]
        return self.valobj.CreateValueFromAddress(name, child.GetLoadAddress(), child.GetType())

    def has_children(self):
        return True


def struct_summary(valobj, _dict=None):
    raw = valobj.GetNonSyntheticValue()
    target = _ref_target(raw)
    if target is None:
        return "null"
    provider = StructProvider(valobj)
    provider.update()
    fields = ", ".join("%s: %s" % (name, fitz_value(child)) for name, child in provider.fields[:MAX_SUMMARY])
    return "%s { %s }" % (_type_name(target.GetType()), fields)


def _guarded(summary):
    """A summary that reports unreadable memory (an uninitialised local, a freed value) as such
    instead of a Python traceback."""

    def run(valobj, internal_dict=None):
        try:
            return summary(valobj, internal_dict)
        except Exception:  # noqa: BLE001 - any failure to read the process means "unreadable"
            return "<unreadable>"

    return run


str_summary = _guarded(str_summary)
list_summary = _guarded(list_summary)
map_summary = _guarded(map_summary)
nullable_summary = _guarded(nullable_summary)
result_summary = _guarded(result_summary)
struct_summary = _guarded(struct_summary)

FORMATTERS = [
    # (type regex, summary function, synthetic provider class or None)
    (r"^fitz::Str$", "str_summary", "LeafProvider"),
    (r"^fitz::List<.+>$", "list_summary", "ListProvider"),
    (r"^fitz::Map<.+>$", "map_summary", "MapProvider"),
    (r"^fitz::Nullable<.+>$", "nullable_summary", "WrapperProvider"),
    (r"^fitz::Result<.+>$", "result_summary", "WrapperProvider"),
    (r"^fitz::Ref<fz[0-9]+::T_.+>$", "struct_summary", "StructProvider"),
]


def __lldb_init_module(debugger, _dict):
    for regex, summary, provider in FORMATTERS:
        debugger.HandleCommand(
            "type summary add -w fitz -x '%s' -F %s.%s -e" % (regex, __name__, summary))
        if provider:
            debugger.HandleCommand(
                "type synthetic add -w fitz -x '%s' -l %s.%s" % (regex, __name__, provider))
    debugger.HandleCommand("type category enable fitz")
