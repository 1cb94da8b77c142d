#!/usr/bin/env python3
# A JSON service of N resources (about 100 lines each) for bench/build/services.sh: typed bodies,
# an in-memory store, validation and CRUD routes with path and query parameters.
# Usage: gen_service.py N > service.fitz
import sys
def resource(i):
    R = f"Item{i}"
    r = f"item{i}"
    return f'''// Resource {i}: typed bodies, an in-memory store, validation and CRUD routes.
type {R} {{
    id: Int
    name: Str
    price: Float
    tags: List<Str> = []
    active: Bool = true
}}

type New{R} {{
    name: Str
    price: Float
    tags: List<Str> = []
}}

type {R}Patch {{
    name: Str?
    price: Float?
    active: Bool?
}}

let {r}_store: Map<Int, {R}> = {{}}
let {r}_next = [1]

fn {r}_validate(name: Str, price: Float) -> Result<Str> {{
    if name.trim().len() == 0 {{
        return Err("a name is required")
    }}
    if price < 0.0 {{
        return Err("price must not be negative, got {{price}}")
    }}
    return Ok(name.trim())
}}

@get("/{r}s?active={{active}}")
fn list_{r}s(active: Bool?) -> List<{R}> {{
    let out: List<{R}> = []
    for (_id, it) in {r}_store {{
        match active {{
            null => out.push(it)
            a => if it.active == a {{ out.push(it) }}
        }}
    }}
    return out
}}

@get("/{r}s/{{id}}")
fn get_{r}(id: Int) {{
    return match {r}_store.get(id) {{
        Ok(it) => it
        Err(_) => return 404 {{"error": "no {r} {{id}}"}}
    }}
}}

@post("/{r}s")
fn create_{r}(body: New{R}) {{
    let name = match {r}_validate(body.name, body.price) {{
        Ok(n) => n
        Err(e) => return 422 {{"error": e}}
    }}
    let id = {r}_next[0]
    {r}_next[0] = id + 1
    let it = {R} {{ id: id, name: name, price: body.price, tags: body.tags }}
    {r}_store[id] = it
    return 201 it
}}

@patch("/{r}s/{{id}}")
fn patch_{r}(id: Int, body: {R}Patch) {{
    let it = match {r}_store.get(id) {{
        Ok(found) => found
        Err(_) => return 404 {{"error": "no {r} {{id}}"}}
    }}
    let name = match body.name {{
        null => it.name
        n => n
    }}
    let price = match body.price {{
        null => it.price
        p => p
    }}
    let active = match body.active {{
        null => it.active
        a => a
    }}
    let updated = {R} {{ id: id, name: name, price: price, tags: it.tags, active: active }}
    {r}_store[id] = updated
    return updated
}}

@delete("/{r}s/{{id}}")
fn delete_{r}(id: Int) {{
    let it = match {r}_store.get(id) {{
        Ok(found) => found
        Err(_) => return 404 {{"error": "no {r} {{id}}"}}
    }}
    {r}_store[id] = {R} {{ id: id, name: it.name, price: it.price, tags: it.tags, active: false }}
    return 204 {{}}
}}

'''
n = int(sys.argv[1])
out = ["// A generated JSON service for the build-time benchmark (bench/build/services.sh)."]
for i in range(n):
    out.append(resource(i))
out.append('@server(8080, "127.0.0.1")\nfn main() => 0\n')
sys.stdout.write("\n".join(out))
