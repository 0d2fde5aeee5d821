"""The local web page of ``kamicp play``: play, hint, solve and design boards in a browser."""
