#include "engine/ids.h"

namespace imquiz {

bool is_slug(std::string_view text) {
    if (text.empty() || text.front() == '-' || text.back() == '-')
        return false;
    char previous = 0;
    for (char c : text) {
        const bool alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alphanumeric && c != '-')
            return false;
        if (c == '-' && previous == '-')
            return false;
        previous = c;
    }
    return true;
}

} // namespace imquiz
