"""Research interfaces: every registered game as a PettingZoo environment (`partygames.rl.pettingzoo`) and
an OpenSpiel game (`partygames.rl.openspiel`), both built on the game's declared encoding. Needs the `rl`
extra (`pip install partygames[rl]`)."""
