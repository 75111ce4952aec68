#pragma once

#include "patterndraft.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace sluice::ui {

class FieldForm;

// The traffic-pattern fields of the Simulation and Load pages: the kind, a line on what it
// does, and the fields of that kind (FORMATS.md "Scenario file"), each with its message under
// it. Holds a PatternDraft; the page checks it (ScenarioDraft, checkAlone) and hands the
// messages back with setErrors(). Objects are named objectPrefix + "pattern" (the kind) and
// objectPrefix + field key (+ "Error"). GUI thread.
class PatternForm : public QWidget
{
    Q_OBJECT
public:
    PatternForm(const QString &objectPrefix, const QStringList &kinds, QWidget *parent = nullptr);

    const PatternDraft &draft() const { return m_draft; }
    // Shows `draft` (no changed()); without one (nullopt) the form is empty and disabled.
    void setDraft(const std::optional<PatternDraft> &draft);
    void setErrors(const FieldErrors &errors);
    void setNoteShown(bool shown);
    // The form under the kind: pages add their own rows after the pattern's.
    FieldForm *fields() const { return m_fields; }

Q_SIGNALS:
    // The user changed the kind or a field: draft() holds the change.
    void changed();
    void submitted();

private:
    void showKind();

    PatternDraft m_draft;
    bool m_has = false;
    bool m_noteShown = true;
    qsizetype m_patternKeys = 0; // the fields before those the page added
    QComboBox *m_kind;
    QLabel *m_note;
    FieldForm *m_fields;
};

} // namespace sluice::ui
