/** A short maze episode in plain-text format, shared by the analysis tests. */
export const MAZE_TEXT = `System: You are a maze agent. Answer with a thought and an action.
User: Position (0,0). Walls: north. Goal: (3,3).
Assistant: Thought: the goal is south-east.
Action: east
User: Position (1,0). Walls: north.
Assistant: Thought: keep going east.
Action: east
User: Position (2,0). Walls: east.
Assistant: Thought: a wall blocks east, go south.
Action: south
User: Position (2,1). Walls: none.
Assistant: Thought: keep going south.
Action: south
`;
