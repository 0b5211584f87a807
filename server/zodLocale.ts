import * as z from 'zod/mini'
import { en } from 'zod/locales'

// zod/mini ships without messages ("Invalid input"); the server's validation answers and its
// configuration errors should say what was expected. The widget's bundle stays without them.
z.config(en())
