# Builds Tally as OpenBench (and other test frameworks) build engines:
#
#   make [EXE=path] [EVALFILE=net.tnn]   # release build, copied to EXE
#   make pgo [EXE=path] [EVALFILE=...]   # the same with profile-guided
#                                        # optimisation (.ci/pgo-build)
#   make help                            # this text
#
# EXE defaults to `tally` here; EVALFILE embeds that chess net instead of
# nets/chess.tnn (build.rs checks it). CC, CXX and -j are accepted and
# change nothing (cargo uses every core). `cargo install --path .` stays
# the way to install Tally; this file only serves those frameworks.

EXE ?= tally
EVALFILE ?=
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

ifeq ($(OS),Windows_NT)
SUFFIX := .exe
endif

# The net as an absolute path: make runs where the framework says, cargo's
# build script in the crate's root.
ifneq ($(strip $(EVALFILE)),)
export TALLY_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: release pgo clean help

release:
	$(CARGO) build --release --locked
	cp "$(TARGET_DIR)/release/tally$(SUFFIX)" "$(EXE)$(SUFFIX)"

pgo:
	.ci/pgo-build
	cp "target/pgo/release/tally$(SUFFIX)" "$(EXE)$(SUFFIX)"

clean:
	$(CARGO) clean

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'
