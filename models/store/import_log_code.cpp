#include "models/store/import_log_code.h"

namespace stepscope {

std::string_view importLogCodeName(ImportLogCode code) {
    switch (code) {
#define STEPSCOPE_IMPORT_LOG_CODE_NAME(name, text, description) \
    case ImportLogCode::name: return text;
        STEPSCOPE_IMPORT_LOG_CODES(STEPSCOPE_IMPORT_LOG_CODE_NAME)
#undef STEPSCOPE_IMPORT_LOG_CODE_NAME
    }
    return "";
}

std::string_view importLogCodeDescription(ImportLogCode code) {
    switch (code) {
#define STEPSCOPE_IMPORT_LOG_CODE_DESCRIPTION(name, text, description) \
    case ImportLogCode::name: return description;
        STEPSCOPE_IMPORT_LOG_CODES(STEPSCOPE_IMPORT_LOG_CODE_DESCRIPTION)
#undef STEPSCOPE_IMPORT_LOG_CODE_DESCRIPTION
    }
    return "";
}

ImportLogCode importLogCodeFromName(std::string_view name) {
#define STEPSCOPE_IMPORT_LOG_CODE_FROM_NAME(name_, text, description) \
    if (name == text) return ImportLogCode::name_;
    STEPSCOPE_IMPORT_LOG_CODES(STEPSCOPE_IMPORT_LOG_CODE_FROM_NAME)
#undef STEPSCOPE_IMPORT_LOG_CODE_FROM_NAME
    return ImportLogCode::Unspecified;
}

} // namespace stepscope
