"""The play page: a local web page to play, hint and solve a board (``kamicp play``)."""
