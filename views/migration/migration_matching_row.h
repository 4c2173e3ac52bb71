// The Migration view's Matching row: corrects the matching as `gradstep migrate --map` does, a
// PyTorch module path or parameter name and its MindSpore counterpart (offered from both
// captures, a selected pair's names filled in), with the corrections made so far.
// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>
#include <map>
#include <string>

class QComboBox;
class QLabel;
class QPushButton;

namespace gradstep::views {

class MigrationMatchingRow : public QWidget {
    Q_OBJECT
public:
    explicit MigrationMatchingRow(QWidget* parent = nullptr);

    /// The names each box offers (a side's module paths, then its parameters).
    void setNames(const QStringList& torch, const QStringList& ms);
    /// The boxes' text: a selected pair's names, ready to be corrected.
    void setCurrent(const QString& torch, const QString& ms);
    /// The corrections shown beside the boxes.
    void setCorrections(const std::map<std::string, std::string>& map);
    /// Whether a run can start now (the buttons), and whether there is anything to clear.
    void setRunnable(bool runnable, bool hasCorrections);

signals:
    void matchRequested(const QString& torch, const QString& mindspore);
    void clearRequested();

private:
    QComboBox* m_torch = nullptr;
    QComboBox* m_ms = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_clear = nullptr;
    QLabel* m_text = nullptr;
};

} // namespace gradstep::views
