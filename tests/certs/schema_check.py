#!/usr/bin/env python3
"""tests/certs/schema_check.py — validates JSON files against certs/certificate.schema.json.

A small validator for the subset of JSON Schema draft 2020-12 that the schema uses (type,
properties, required, additionalProperties, items, prefixItems, minItems, maxItems, minimum,
maximum, enum, const, minLength, maxLength, pattern, maxProperties, oneOf, local $ref), on
the standard library only. When the `jsonschema` package happens to be importable it is run
as a second opinion and must agree (it is not required).

Usage: schema_check.py SCHEMA FILE... [--expect-invalid]
Exit 0 when every file is valid (or, with --expect-invalid, every file is invalid); prints one
line per file.
"""
import json
import math
import re
import sys


class Invalid(Exception):
    pass


def type_ok(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    if t == "integer":  # strict: 1.0 is not an integer (as in the C++ reader)
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    raise ValueError("unsupported type " + t)


def same(a, b):
    """JSON equality (true is not 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return a == b


class Validator:
    def __init__(self, schema):
        self.root = schema

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("only local $ref: " + ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def check(self, v, s, path="$"):
        if s is True:
            return
        if s is False:
            raise Invalid(path + ": not allowed")
        if "$ref" in s:
            self.check(v, self.resolve(s["$ref"]), path)
        if "oneOf" in s:
            ok, errs = 0, []
            for sub in s["oneOf"]:
                try:
                    self.check(v, sub, path)
                    ok += 1
                except Invalid as e:
                    errs.append(str(e))
            if ok != 1:
                raise Invalid(path + ": matches %d of oneOf (%s)" % (ok, " | ".join(errs)))
        if "type" in s and not type_ok(v, s["type"]):
            raise Invalid("%s: expected %s" % (path, s["type"]))
        if "const" in s and not same(v, s["const"]):
            raise Invalid("%s: expected %r" % (path, s["const"]))
        if "enum" in s and not any(same(v, e) for e in s["enum"]):
            raise Invalid("%s: %r not in %r" % (path, v, s["enum"]))
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if "minimum" in s and v < s["minimum"]:
                raise Invalid("%s: %r < %r" % (path, v, s["minimum"]))
            if "maximum" in s and v > s["maximum"]:
                raise Invalid("%s: %r > %r" % (path, v, s["maximum"]))
        if isinstance(v, str):
            if "minLength" in s and len(v) < s["minLength"]:
                raise Invalid(path + ": too short")
            if "maxLength" in s and len(v) > s["maxLength"]:
                raise Invalid(path + ": too long")
            if "pattern" in s and not re.search(s["pattern"], v):
                raise Invalid("%s: %r does not match %s" % (path, v[:80], s["pattern"]))
        if isinstance(v, list):
            if "minItems" in s and len(v) < s["minItems"]:
                raise Invalid(path + ": too few items")
            if "maxItems" in s and len(v) > s["maxItems"]:
                raise Invalid(path + ": too many items")
            pre = s.get("prefixItems", [])
            for i, sub in enumerate(pre[: len(v)]):
                self.check(v[i], sub, "%s[%d]" % (path, i))
            if "items" in s:
                for i in range(len(pre), len(v)):
                    self.check(v[i], s["items"], "%s[%d]" % (path, i))
        if isinstance(v, dict):
            if "maxProperties" in s and len(v) > s["maxProperties"]:
                raise Invalid(path + ": too many properties")
            for r in s.get("required", []):
                if r not in v:
                    raise Invalid("%s: missing %r" % (path, r))
            props = s.get("properties", {})
            for k, x in v.items():
                if k in props:
                    self.check(x, props[k], path + "." + k)
                elif "additionalProperties" in s:
                    ap = s["additionalProperties"]
                    if ap is False:
                        raise Invalid("%s: unknown key %r" % (path, k))
                    self.check(x, ap, path + "." + k)


def reject_constant(c):
    raise ValueError("non-finite number " + c)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    expect_invalid = "--expect-invalid" in sys.argv
    schema = json.load(open(args[0]))
    val = Validator(schema)
    try:
        import jsonschema  # optional second opinion
        second = jsonschema.Draft202012Validator(schema)
    except Exception:
        second = None
    bad = 0
    for f in args[1:]:
        try:
            doc = json.load(open(f, "rb"), parse_constant=reject_constant)
            val.check(doc, schema)
            verdict, why = True, ""
        except (Invalid, ValueError, UnicodeDecodeError) as e:
            verdict, why = False, str(e)[:300]
        if second is not None and verdict:
            errs = list(second.iter_errors(doc))
            if errs:
                print("DISAGREE %s: jsonschema says invalid: %s" % (f, errs[0].message[:200]))
                bad += 1
                continue
        ok = verdict != expect_invalid
        print("%s %s%s" % ("ok  " if ok else "FAIL", f, (": " + why) if why else ""))
        bad += 0 if ok else 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
