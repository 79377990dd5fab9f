"""What `progress-site new` writes for its user to replace: the placeholder repository
and title, the sample commits its sample figures cite, and its sample roadmap's tasks.
A site that still holds them would publish links to pages that do not exist and numbers
that are not its own (validate/placeholders.py warns; tests/test_new.py checks the
skeleton holds them)."""

from __future__ import annotations

PLACEHOLDER_TITLE = "My project"
# The skeleton's repository address: `new --repo URL` writes the user's instead.
PLACEHOLDER_URL = "https://github.com/OWNER/my-project"
# The commits of the skeleton's sample measurements, study and roadmap.
SAMPLE_COMMITS = ("0c1d2e3", "5f6a7b8", "a1b2c3d", "e4f5a6b")
# The skeleton's sample tasks, by id and title in English and French: they cite no
# commit, so a site whose sample commits were replaced still published a task "done"
# with the skeleton's proof and date. All three words: a site's own task `plugins`,
# titled "Plugins", is no sample (its French title is its own).
SAMPLE_TASKS = frozenset({("faster-start", "Start faster", "Démarrer plus vite"),
                          ("less-memory", "Use less memory at rest",
                           "Utiliser moins de mémoire au repos"),
                          ("plugins", "Plugins", "Des extensions")})
