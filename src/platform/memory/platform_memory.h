// platform.h in memory, for native tests of the app: files to "fetch" are handed in by the test,
// storage is a map, the clock moves only when the test moves it, and everything the app sends
// out (published state, host messages, downloads, signals) is kept for the test to read.
// No drawing surface and no input: tests drive the app through its actions, as the page does.
#pragma once

#include "platform/platform.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace imquiz::platform::memory {

struct World {
    // What the app finds
    std::map<std::string, std::string> url_parameters;
    std::string development_bank_url;         // a bank= link the deployment allowed
    std::string browser_language = "en";
    bool prefers_dark = false;
    // Files by URL, relative to the page; a missing one answers 404. Fetches complete when the
    // test calls deliver_fetches(), not at once, as on the web.
    std::map<std::string, std::string> files;
    std::map<std::string, int> http_status;   // URL -> status to answer instead of 200
    std::map<std::string, std::string> storage;
    bool storage_persistent = true;
    bool storage_full = false;                // every storage_set fails, as a full localStorage
    double now_ms = 1'767'225'600'000.0;      // 2026-01-01T00:00:00Z
    int wake_after_ms = -1;                   // the last wake_after() asked for (-1: none)
    // md4c is linked in natively; a test may hold it back (Loading) or break it (Failed) to see
    // what a Markdown bank does while the web's module is on its way or could not be had.
    MarkdownParser markdown = MarkdownParser::Ready;
    int markdown_requests = 0;                // prepare_markdown calls
    // No highlighter natively: code stays plain (Failed, as on a page whose script could not
    // come). A test may pretend one is on its way (Loading) or there (Ready, answering
    // `code_colours` for every code block) to see what the app does then.
    CodeHighlighter code_highlighter = CodeHighlighter::Failed;
    std::string code_colours;                 // highlight_code's answer once Ready
    int code_highlighter_requests = 0;        // prepare_code_highlighter calls
    std::vector<std::string> highlighted;     // highlight_code's languages, one per call
    MathTypesetter math = MathTypesetter::Absent;  // no math module, unless a test gives one:
    std::function<std::string(std::string_view tex, bool display)> typeset;  // answers when math is Ready
    int math_requests = 0;                    // prepare_math calls
    std::string math_bank;                    // the bank url of the last one
    std::uint64_t random = 0x5EED;
    bool pictures_decode = true;              // false: every picture fails to decode

    // What the app did
    std::vector<std::string> fetched;         // every URL asked for, in order
    std::string state_json;                   // the last published state
    std::vector<std::string> host_messages;
    std::vector<std::string> signals;
    std::string document_language, document_title;
    std::vector<std::pair<std::string, std::string>> downloads;  // file name, text
    int file_pickers_opened = 0;
    std::vector<std::string> opened_links;
    std::string clipboard;
    int picture_requests = 0;
    std::vector<std::string> picture_mimes;   // of every decode asked for
    std::vector<std::uint32_t> live_pictures; // textures made and not freed

    // Decoded pictures, until the app takes them
    std::deque<DecodedPicture> decoded_pictures;

    // Queued for the app
    std::deque<std::string> page_actions;
    std::optional<std::string> picked_file;
    std::vector<std::string> changed_storage_keys;
    std::vector<std::string> changed_files;   // URLs whose source changed (a watched folder)
};

// The one world the functions of platform.h read and write; reset() gives a fresh one.
World& world();
void reset();
// Completes every fetch the app has started (answers from World::files).
void deliver_fetches();

}  // namespace imquiz::platform::memory
