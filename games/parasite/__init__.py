"""Parasite (Mad Birch Games, 2024) for pbem: hidden roles in an Arctic base.

The card set is data (data/*.toml, read by cards.py against the vocabulary of EFFECTS.md);
the rules are in rules.py and effects.py; rulings in games/parasite/README.md.
"""
