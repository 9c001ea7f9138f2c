// The event stream between md4c and rich_text_from_events (markdown.h). One event is a tag byte
// and its fields; numbers are one byte, or four bytes little-endian where they can be large;
// strings are a four-byte length and the bytes.
//   'B' type detail   a block starts: H level(1) · CODE language(str) · OL start(4) · TH/TD align(1)
//   'b' type          a block ends
//   'S' type detail   a span starts: A href(str) · IMG src(str)
//   's' type          a span ends
//   'T' type text(str) text of md4c's MD_TEXTTYPE `type`
// Types are md4c's own enum values (MD_BLOCKTYPE, MD_SPANTYPE, MD_TEXTTYPE of md4c 0.4.8).
#pragma once

#include <cstddef>
#include <string>

namespace imquiz::md4c_events {

// md4c's enum values, so that the reader of the stream needs no md4c header (the web app's own
// wasm has no md4c); md4c_events.cpp checks them against md4c.h.
enum BlockType : unsigned char { Doc, Quote, UnorderedList, OrderedList, ListItem, Rule, Heading, CodeBlock, Html,
                                 Paragraph, Table, TableHead, TableBody, TableRow, HeaderCell, Cell };
enum SpanType : unsigned char { Emphasis, Strong, Link, Image, Code, Strikethrough, Math, DisplayMath };
enum TextType : unsigned char { Normal, NullChar, HardBreak, SoftBreak, Entity, CodeText, HtmlText, MathText };

// The md4c options ImQuiz parses with: tables, strikethrough, $math$, and no raw HTML (it is
// shown as the text it is).
unsigned parser_flags();

// Parses `size` bytes of Markdown, appending the events to `out`. False when md4c gave up (it
// does only when out of memory); `out` then holds the events up to there.
bool parse(const char* markdown, std::size_t size, std::string& out);

}  // namespace imquiz::md4c_events
