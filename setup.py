"""Where the packages come from; everything else is in pyproject.toml.

The repository keeps its folders ``agents/``, ``wrappers/`` and ``benchmarks/``, but they are
installed as ``gymv.agents``, ``gymv.wrappers`` and ``gymv.benchmarks`` (``gymv`` itself is a
namespace package): other distributions install top-level ``agents`` (the OpenAI Agents SDK)
and ``benchmarks``, and two owners of one top-level name silently overwrite each other.
``gymv_envs`` keeps its name. Data folders (fonts, prompt templates) are namespace packages so
that their files are package data. A test builds the wheel and checks its top-level names.
"""

from setuptools import find_namespace_packages, setup

FOLDERS = {"gymv.agents": "agents", "gymv.wrappers": "wrappers", "gymv.benchmarks": "benchmarks"}
SKIP = ["*.__pycache__", "__pycache__"]

packages = find_namespace_packages(include=["gymv_envs", "gymv_envs.*"], exclude=SKIP)
for name, folder in FOLDERS.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(where=folder, exclude=SKIP)]

setup(packages=packages, package_dir=FOLDERS)
