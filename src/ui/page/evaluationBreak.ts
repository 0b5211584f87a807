import { nextTask } from '../nextTask'

// Imported between the page's two halves (main.tsx): what the bundle evaluates after this line runs
// in a later task, so that evaluating the app is two tasks a phone can answer a tap between, not one
await nextTask()
