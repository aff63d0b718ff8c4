"""A JavaScript file whose opening comments mark it `@flow` carries Flow's type annotations: it is
read by the TSX grammar (languages/javascript.py `flow_dialect`), which reads them, where the
JavaScript grammar lost the definitions around them in syntax errors."""

from __future__ import annotations

from test_bindings import index_of, target

FLOW_FILE = """
/**
 * Copyright notice.
 *
 * @flow strict-local
 * @format
 */
import type { Node } from './types';
import { View } from './view';

export type Reader = {
  offset: number,
  read(n: number): Array<number>,
};

function readU32(reader: Reader): number {
  const bytes: Array<number> = reader.read(4);
  return decode(bytes, 0);
}

function decode(bytes: Array<number>, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

export function parseHeader(reader: Reader): {magic: number, version: number} {
  const magic = readU32(reader);
  const version = readU32(reader);
  return {magic, version};
}

export class Panel {
  props: {title: string};
  render(): Node {
    return <View title={this.props.title} />;
  }
}
"""


def test_a_flow_file_is_read_as_tsx_and_keeps_its_definitions(tmp_path):
    index = index_of(tmp_path, {"decoder.js": FLOW_FILE, "types.js": "export function noop() {}\n", "view.js": "export function View() {}\n"})
    facts = index.files["decoder.js"]
    assert facts.language == "tsx"
    assert facts.parse_errors == 0
    assert {"readU32", "decode", "parseHeader", "Panel", "Panel.render"} <= {u.qualname for u in facts.units}
    assert target(index, "decoder.js", "readU32") == "decoder.js::readU32"
    assert target(index, "decoder.js", "decode") == "decoder.js::decode"
    assert target(index, "decoder.js", "View") == "view.js::View"
    assert index.files["types.js"].language == "javascript"


def test_only_the_opening_comments_mark_a_flow_file():
    from codegraph.languages.javascript import flow_dialect

    assert flow_dialect(b"// @flow\nconst a = 1;\n") == "tsx"
    assert flow_dialect(b"#!/usr/bin/env node\n/* @flow */\nconst a = 1;\n") == "tsx"
    assert flow_dialect(b"/**\n * @noflow\n */\nconst a = 1;\n") == ""
    assert flow_dialect(b"const a = 1;\n// @flow\n") == ""  # a mark below the code is no mark
    assert flow_dialect(b"/* the @flowchart helper */\nconst a = 1;\n") == ""
