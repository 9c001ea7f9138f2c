// Writes a Bank as a bank file (quizzes/<id>.json, format v1): the inverse of load_bank().
#pragma once

#include "engine/bank.h"

#include <string>

namespace imquiz {

// Pretty-printed JSON (2-space indent, fields in the order the shipped banks use, translations
// in the order of `languages`), ending with a newline. Optional fields are written only when
// set, settings only when they differ from the defaults. load_bank() of the result gives back
// an equal bank, provided the bank was valid (texts not blank, numbers finite; NaN and infinity
// would be written as null). Invalid UTF-8 is replaced by U+FFFD.
std::string bank_to_json(const Bank& bank);

} // namespace imquiz
