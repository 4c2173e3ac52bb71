// SPDX-License-Identifier: MIT
#include "python/host/user_files.h"

namespace gradstep::python {

namespace fs = std::filesystem;

UserFiles::UserFiles(const fs::path& script)
{
    const fs::path absolute = fs::absolute(script).lexically_normal();
    m_script = absolute.string();
    m_directory = absolute.parent_path().string();
    m_given = script.string();
    m_givenDir = script.parent_path().string();
    if (!m_givenDir.empty() && m_givenDir.back() != '/')
        m_givenDir += '/';
}

bool UserFiles::contains(std::string_view file) const
{
    if (file == m_script)
        return true;
    if (m_directory.empty() || file.size() <= m_directory.size() + 1
        || file.substr(0, m_directory.size()) != m_directory
        || (m_directory != "/" && file[m_directory.size()] != '/'))
        return false;
    const std::string_view rest = file.substr(m_directory.size());
    return rest.find("/site-packages/") == std::string_view::npos
           && rest.find("/dist-packages/") == std::string_view::npos;
}

std::string UserFiles::display(std::string_view file) const
{
    if (file == m_script)
        return m_given;
    if (!contains(file))
        return std::string(file);
    std::string_view rest = file.substr(m_directory.size());
    if (!rest.empty() && rest.front() == '/')
        rest.remove_prefix(1);
    return m_givenDir + std::string(rest);
}

} // namespace gradstep::python
