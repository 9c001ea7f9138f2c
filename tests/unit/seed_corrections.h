// The corrections of seed text a launch bank lists (issue 20): the seeds in quizzes/sources are
// their authors' drafts, kept byte for byte, and every line of them the bank changed is listed
// with the seed's original, in the bank's `notes` and in docs/launch-content.md. Both lists are
// read here so that the tests can hold each seed line to "verbatim or its listed correction".
// Standard library only: test_launch_content.cpp also builds without the engine.
#pragma once

#include <string>
#include <vector>

namespace imquiz::testing {

struct SeedCorrection {
    std::string where;     // "title", "promise", "Q5" (question 5's prompt), "Q5.1" (its option 1)
    std::string language;  // the seed line's language: the bank text it is shipped under
    std::string findings;  // the launch-content review's finding ids, "S1, L2"
    std::string original;  // the seed line, as the authors wrote it
    std::string corrected; // what the bank ships instead
    std::string reason;
};

// The seed line named by `where`: question and option numbers in seed order (1-based), option 0
// for the question's own text. Returns false for anything else.
inline bool parse_seed_location(const std::string& where, int& question, int& option) {
    question = option = 0;
    if (where == "title" || where == "promise") return true;
    if (where.size() < 2 || where[0] != 'Q') return false;
    std::size_t i = 1;
    auto number = [&](int& value) {
        const std::size_t start = i;
        while (i < where.size() && where[i] >= '0' && where[i] <= '9') value = value * 10 + (where[i++] - '0');
        return i > start && value > 0;
    };
    if (!number(question)) return false;
    if (i == where.size()) return true;
    if (where[i++] != '.') return false;
    return number(option) && i == where.size();
}

// One line of a bank's notes: `Q5.1 ru [S1, L2] “seed text” → “shipped text” — why`.
// Lines of any other shape are prose and ignored; a line that starts like a correction but does
// not parse is reported in `malformed`, so a typo cannot silently drop a correction.
inline std::vector<SeedCorrection> corrections_in_notes(const std::string& notes,
                                                        std::vector<std::string>& malformed) {
    static const std::string open = "\xE2\x80\x9C", close = "\xE2\x80\x9D";        // “ ”
    static const std::string arrow = " \xE2\x86\x92 ", dash = " \xE2\x80\x94 ";    // → —
    std::vector<SeedCorrection> corrections;
    std::size_t start = 0;
    while (start <= notes.size()) {
        std::size_t end = notes.find('\n', start);
        if (end == std::string::npos) end = notes.size();
        const std::string line = notes.substr(start, end - start);
        start = end + 1;
        const std::size_t space = line.find(' ');
        int question = 0, option = 0;
        if (space == std::string::npos || !parse_seed_location(line.substr(0, space), question, option))
            continue;
        SeedCorrection correction;
        correction.where = line.substr(0, space);
        const std::size_t language_end = line.find(" [", space + 1);
        const std::size_t findings_end = line.find("] " + open, space + 1);
        const std::size_t original_end = line.find(close + arrow + open, space + 1);
        const std::size_t corrected_start = original_end + close.size() + arrow.size() + open.size();
        const std::size_t corrected_end =
            original_end == std::string::npos ? std::string::npos : line.find(close + dash, corrected_start);
        if (language_end == std::string::npos || findings_end == std::string::npos ||
            original_end == std::string::npos || corrected_end == std::string::npos ||
            !(language_end < findings_end && findings_end < original_end)) {
            malformed.push_back(line);
            continue;
        }
        correction.language = line.substr(space + 1, language_end - space - 1);
        correction.findings = line.substr(language_end + 2, findings_end - language_end - 2);
        const std::size_t original_start = findings_end + 2 + open.size();
        correction.original = line.substr(original_start, original_end - original_start);
        correction.corrected = line.substr(corrected_start, corrected_end - corrected_start);
        correction.reason = line.substr(corrected_end + close.size() + dash.size());
        corrections.push_back(correction);
    }
    return corrections;
}

// The rows of docs/launch-content.md's corrections table for one bank:
// `| bank | where | language | findings | seed text | shipped text | why |`.
inline std::vector<SeedCorrection> corrections_in_doc(const std::string& markdown, const std::string& bank_id) {
    std::vector<SeedCorrection> corrections;
    const std::string prefix = "| " + bank_id + " | ";
    std::size_t start = 0;
    while (start < markdown.size()) {
        std::size_t end = markdown.find('\n', start);
        if (end == std::string::npos) end = markdown.size();
        const std::string line = markdown.substr(start, end - start);
        start = end + 1;
        if (line.compare(0, prefix.size(), prefix) != 0) continue;
        std::vector<std::string> cells;
        std::size_t cell = prefix.size();
        for (std::size_t bar; (bar = line.find(" | ", cell)) != std::string::npos; cell = bar + 3)
            cells.push_back(line.substr(cell, bar - cell));
        if (line.size() >= cell + 2 && line.compare(line.size() - 2, 2, " |") == 0)
            cells.push_back(line.substr(cell, line.size() - 2 - cell));
        if (cells.size() != 6) continue;
        corrections.push_back({cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]});
    }
    return corrections;
}

} // namespace imquiz::testing
