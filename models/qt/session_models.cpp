#include "models/qt/session_models.h"

#include "models/analysis/service/analysis_model.h"
#include "models/annotations/annotation_model.h"
#include "models/annotations/saved_view_model.h"

namespace stepscope {

SessionModels SessionModels::of(SessionModel *session, TimeRangeController *time) {
    if (!session) return SessionModels{nullptr, time, nullptr, nullptr, nullptr};
    return SessionModels{session, time, AnalysisModel::of(session), AnnotationModel::of(session), SavedViewModel::of(session)};
}

} // namespace stepscope
