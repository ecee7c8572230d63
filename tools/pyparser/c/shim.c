// shim.c: the tree-sitter-python parser as a WebAssembly module with a
// flat interface. parse writes the whole tree, in pre-order, as records of
// REC uint32 each at out_ptr(), so that the Go side reads it in one pass
// instead of calling into the module once per node.
#include <stdint.h>
#include <stdlib.h>
#include "tree_sitter/api.h"

const TSLanguage *tree_sitter_python(void);

// A record: symbol, field id (in the parent), flags, child count, start
// byte, end byte, start row, start column (bytes).
enum { REC = 8 };
enum { NAMED = 1, ERROR = 2, MISSING = 4, HAS_ERROR = 8, EXTRA = 16 };

static TSParser *parser;
static uint32_t *out;
static uint32_t out_cap, out_len;

__attribute__((export_name("alloc"))) void *alloc(uint32_t n) { return malloc(n); }
__attribute__((export_name("dealloc"))) void dealloc(void *p) { free(p); }
__attribute__((export_name("out_ptr"))) uint32_t *out_ptr(void) { return out; }

// push appends the cursor's node; it returns 0 when memory runs out.
static int push(TSTreeCursor *c) {
  if (out_len + REC > out_cap) {
    uint32_t cap = out_cap ? out_cap * 2 : 1 << 16;
    uint32_t *grown = realloc(out, cap * sizeof *out);
    if (!grown) return 0;
    out = grown;
    out_cap = cap;
  }
  TSNode n = ts_tree_cursor_current_node(c);
  uint32_t *r = out + out_len;
  out_len += REC;
  uint32_t flags = 0;
  if (ts_node_is_named(n)) flags |= NAMED;
  if (ts_node_is_error(n)) flags |= ERROR;
  if (ts_node_is_missing(n)) flags |= MISSING;
  if (ts_node_has_error(n)) flags |= HAS_ERROR;
  if (ts_node_is_extra(n)) flags |= EXTRA;
  TSPoint s = ts_node_start_point(n);
  r[0] = ts_node_symbol(n);
  r[1] = ts_tree_cursor_current_field_id(c);
  r[2] = flags;
  r[3] = ts_node_child_count(n);
  r[4] = ts_node_start_byte(n);
  r[5] = ts_node_end_byte(n);
  r[6] = s.row;
  r[7] = s.column;
  return 1;
}

// parse parses src[0:len] and returns the number of records written at
// out_ptr(), or 0 when the module ran out of memory.
__attribute__((export_name("parse"))) uint32_t parse(const char *src, uint32_t len) {
  if (!parser) {
    parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
  }
  TSTree *tree = ts_parser_parse_string(parser, NULL, src, len);
  if (!tree) return 0;
  out_len = 0;
  int ok = 1;
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  while (ok && (ok = push(&c))) {
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  ts_tree_delete(tree);
  return ok ? out_len / REC : 0;
}

// release frees the record buffer, so that a module that parsed one large
// file does not keep its memory for the small ones after it.
__attribute__((export_name("release"))) void release(void) {
  free(out);
  out = NULL;
  out_cap = out_len = 0;
}

__attribute__((export_name("symbol_count"))) uint32_t symbol_count(void) {
  return ts_language_symbol_count(tree_sitter_python());
}
__attribute__((export_name("symbol_name"))) const char *symbol_name(uint32_t s) {
  return ts_language_symbol_name(tree_sitter_python(), (TSSymbol)s);
}
__attribute__((export_name("field_count"))) uint32_t field_count(void) {
  return ts_language_field_count(tree_sitter_python());
}
__attribute__((export_name("field_name"))) const char *field_name(uint32_t f) {
  return ts_language_field_name_for_id(tree_sitter_python(), (TSFieldId)f);
}
