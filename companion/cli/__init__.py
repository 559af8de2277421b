"""The ``companion`` command: its subcommands (``main``), the dice commands ``read``,
``watch`` and ``teach`` (``dice``), ``doctor``, and ``bench`` with its benchmarks."""
