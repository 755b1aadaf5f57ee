"""The plugin's own tests run with pytester (pytest's fixture for testing plugins) and the plugin itself, which
pytest loads from the installed package's ``pytest11`` entry point."""

pytest_plugins = ["pytester"]
